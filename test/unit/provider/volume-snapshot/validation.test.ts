import { describe, expect, it } from "vitest";
import { validateVolumeSnapshotArgs } from "../../../../provider/kinds/declarations";
import { UNKNOWN } from "../../../../provider/model/validation";

describe("validateVolumeSnapshotArgs", () => {
  const cases: [string, Record<string, unknown>, [property: string, reason: RegExp] | undefined][] = [
    ["accepts app and volumeId", { app: "demo-app", volumeId: "vol_1" }, undefined],
    [
      "accepts an unknown volumeId (volume created in the same up)",
      { app: "demo-app", volumeId: UNKNOWN },
      undefined,
    ],
    ["requires volumeId", { app: "demo-app" }, ["volumeId", /^volumeId is required/]],
    [
      "rejects waitTimeoutSeconds above one day",
      { app: "demo-app", volumeId: "v", waitTimeoutSeconds: 86_401 },
      [
        "waitTimeoutSeconds",
        /^waitTimeoutSeconds must be a whole number from 1 to 86400 seconds \(got 86401\)$/,
      ],
    ],
  ];
  for (const [rule, news, failure] of cases) {
    it(rule, () => {
      const failures = validateVolumeSnapshotArgs(news);
      if (!failure) expect(failures).toEqual([]);
      else expect(failures).toEqual([{ property: failure[0], reason: expect.stringMatching(failure[1]) }]);
    });
  }
});
