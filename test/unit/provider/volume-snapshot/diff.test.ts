import { describe, expect, it } from "vitest";
import * as runtime from "../../../../provider/kinds/runtime-entry";
import { UNKNOWN } from "../../../../provider/model/validation";

describe("VolumeSnapshot diff", () => {
  const outs = { app: "demo-app", volumeId: "vol_1", snapshotId: "vs_1", triggers: { n: "1" } };
  const cases: [string, Record<string, unknown>, { changes: boolean; replaces: string[] }][] = [
    [
      "no change",
      { app: "demo-app", volumeId: "vol_1", triggers: { n: "1" } },
      { changes: false, replaces: [] },
    ],
    [
      "a new trigger takes a new snapshot",
      { app: "demo-app", volumeId: "vol_1", triggers: { n: "2" } },
      { changes: true, replaces: ["triggers"] },
    ],
    [
      "another volume is no change: the snapshot was taken (its source made again, say)",
      { app: "demo-app", volumeId: "vol_2", triggers: { n: "1" } },
      { changes: false, replaces: [] },
    ],
    [
      "an unknown volume (being made again) is no change either",
      { app: "demo-app", volumeId: UNKNOWN, triggers: { n: "1" } },
      { changes: false, replaces: [] },
    ],
    [
      "a new wait timeout is recorded in place",
      { app: "demo-app", volumeId: "vol_1", triggers: { n: "1" }, waitTimeoutSeconds: 5 },
      { changes: true, replaces: [] },
    ],
  ];
  for (const [rule, news, expected] of cases) {
    it(rule, async () => {
      const result = await runtime.volumeSnapshot.diff("vs_1", outs, news);
      expect({ changes: result.changes, replaces: result.replaces }).toEqual(expected);
    });
  }
});
