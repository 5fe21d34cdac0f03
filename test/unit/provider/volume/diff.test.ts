import { describe, expect, it } from "vitest";
import * as runtime from "../../../../provider/kinds/runtime-entry";
import { UNKNOWN } from "../../../../provider/model/validation";
import { detailedDiff } from "../../../../provider/plugin/resource-provider";

// `olds` of diff are the previous OUTPUTS: every input is stored there under its own name.
const volumeOuts = {
  app: "demo-app",
  volumeId: "vol_1",
  name: "data",
  region: "ord",
  sizeGb: 10,
  encrypted: true,
  fstype: "ext4",
  snapshotRetention: 5,
  autoBackupEnabled: true,
  zone: "ab12",
  state: "created",
  needsRestart: false,
};
const volumeIns = { app: "demo-app", name: "data", region: "ord", sizeGb: 10, snapshotRetention: 5 };

describe("Volume diff", () => {
  // The fourth member: what the previous outputs hold besides volumeOuts.
  const cases: [
    string,
    Record<string, unknown>,
    { changes: boolean; replaces: string[] },
    Record<string, unknown>?,
  ][] = [
    ["reports no change when inputs equal the outputs", volumeIns, { changes: false, replaces: [] }],
    [
      "does not count a removed sizeGb as a change",
      { app: "demo-app", name: "data" },
      { changes: false, replaces: [] },
    ],
    ["updates growth of sizeGb in place", { ...volumeIns, sizeGb: 20 }, { changes: true, replaces: [] }],
    [
      "updates retention and backups in place",
      { ...volumeIns, snapshotRetention: 9, autoBackupEnabled: false },
      { changes: true, replaces: [] },
    ],
    ["replaces on a new name", { ...volumeIns, name: "other" }, { changes: true, replaces: ["name"] }],
    ["replaces on a new region", { ...volumeIns, region: "ams" }, { changes: true, replaces: ["region"] }],
    ["replaces on a new app", { ...volumeIns, app: "other-app" }, { changes: true, replaces: ["app"] }],
    [
      "replaces on encrypted false",
      { ...volumeIns, encrypted: false },
      { changes: true, replaces: ["encrypted"] },
    ],
    ["replaces on a new fstype", { ...volumeIns, fstype: "xfs" }, { changes: true, replaces: ["fstype"] }],
    [
      "replaces on a snapshotId (a restore)",
      { ...volumeIns, snapshotId: "vs_1" },
      { changes: true, replaces: ["snapshotId"] },
    ],
    [
      "a restored volume's new snapshotId is no change: it was restored (its snapshot taken again, say)",
      { ...volumeIns, snapshotId: "vs_2" },
      { changes: false, replaces: [] },
      { snapshotId: "vs_1" },
    ],
    [
      "a restored volume's unknown snapshotId is no change either (its snapshot's resource recreated)",
      { ...volumeIns, snapshotId: UNKNOWN },
      { changes: false, replaces: [] },
      { snapshotId: "vs_1" },
    ],
    [
      "replaces on an unknown snapshotId of a volume that was not restored (a restore)",
      { ...volumeIns, snapshotId: UNKNOWN },
      { changes: true, replaces: ["snapshotId"] },
    ],
    [
      "a restored volume still updates in place for its other inputs",
      { ...volumeIns, snapshotId: "vs_2", snapshotRetention: 9 },
      { changes: true, replaces: [] },
      { snapshotId: "vs_1" },
    ],
    [
      "a restored volume is still replaced by a change to its own replacing inputs",
      { ...volumeIns, snapshotId: "vs_1", name: "other" },
      { changes: true, replaces: ["name"] },
      { snapshotId: "vs_1" },
    ],
    [
      "replaces on a sourceVolumeId",
      { ...volumeIns, sourceVolumeId: "vol_2" },
      { changes: true, replaces: ["sourceVolumeId"] },
    ],
    [
      "a fork's new sourceVolumeId is no change: it was forked (its source made again, say)",
      { ...volumeIns, sourceVolumeId: "vol_3" },
      { changes: false, replaces: [] },
      { sourceVolumeId: "vol_2" },
    ],
    [
      "a fork's unknown sourceVolumeId is no change either",
      { ...volumeIns, sourceVolumeId: UNKNOWN },
      { changes: false, replaces: [] },
      { sourceVolumeId: "vol_2" },
    ],
    [
      "replaces on machinesOnly",
      { ...volumeIns, machinesOnly: true },
      { changes: true, replaces: ["machinesOnly"] },
    ],
    [
      "replaces on requireUniqueZone",
      { ...volumeIns, requireUniqueZone: false },
      { changes: true, replaces: ["requireUniqueZone"] },
    ],
    ["replaces on compute", { ...volumeIns, compute: { cpus: 2 } }, { changes: true, replaces: ["compute"] }],
    ["replaces on an unknown name", { ...volumeIns, name: UNKNOWN }, { changes: true, replaces: ["name"] }],
    [
      "updates on an unknown sizeGb without replacing",
      { ...volumeIns, sizeGb: UNKNOWN },
      { changes: true, replaces: [] },
    ],
    [
      "records restoreTimeoutSeconds in place",
      { ...volumeIns, restoreTimeoutSeconds: 60 },
      { changes: true, replaces: [] },
    ],
    [
      "records adoptVolumeId naming this volume in place",
      { ...volumeIns, adoptVolumeId: "vol_1" },
      { changes: true, replaces: [] },
    ],
    [
      "replaces when adoptVolumeId names another volume",
      { ...volumeIns, adoptVolumeId: "vol_9" },
      { changes: true, replaces: ["adoptVolumeId"] },
    ],
    [
      "never replaces for an unknown adoptVolumeId",
      { ...volumeIns, adoptVolumeId: UNKNOWN },
      { changes: true, replaces: [] },
    ],
  ];
  for (const [rule, news, expected, olds] of cases) {
    it(rule, async () => {
      const result = await runtime.volume.diff("vol_1", { ...volumeOuts, ...olds }, news);
      expect({ changes: result.changes, replaces: result.replaces }).toEqual(expected);
    });
  }

  // The platform's volume grew elsewhere from the program's 10 GB to 30 GB.
  const grown = { ...volumeOuts, sizeGb: 30, programSizeGb: 10 };
  const grownCases: [string, Record<string, unknown>, { changes: boolean; replaces: string[] }][] = [
    [
      "plans nothing for the unchanged program when the volume grew elsewhere",
      volumeIns,
      { changes: false, replaces: [] },
    ],
    [
      "plans nothing for a sizeGb raised up to the platform's size",
      { ...volumeIns, sizeGb: 30 },
      { changes: false, replaces: [] },
    ],
    [
      "grows in place for a sizeGb above the platform's size",
      { ...volumeIns, sizeGb: 31 },
      { changes: true, replaces: [] },
    ],
    [
      "still updates retention in place when the size grew elsewhere",
      { ...volumeIns, snapshotRetention: 9 },
      { changes: true, replaces: [] },
    ],
  ];
  for (const [rule, news, expected] of grownCases) {
    it(rule, async () => {
      const result = await runtime.volume.diff("vol_1", grown, news);
      expect({ changes: result.changes, replaces: result.replaces }).toEqual(expected);
    });
  }
});

// The one answer (provider/model/change-plan): what each changed input does, from which the plugin's
// detailedDiff and the dynamic host's answer are derived (issue 45's cases, both doors alike).
describe("Volume diff: the kind's answer, input by input", () => {
  const grown = { ...volumeOuts, sizeGb: 10, programSizeGb: 3 };
  const program = { ...volumeIns, sizeGb: 3 };
  const properties = async (
    olds: Record<string, unknown>,
    news: Record<string, unknown>,
    oldInputs?: object,
  ) => (await runtime.volume.diff("vol_1", olds, news, oldInputs as Record<string, unknown>)).properties;

  it("a volume grown elsewhere whose snapshotRetention changes: only snapshotRetention, an update", async () => {
    const news = { ...program, snapshotRetention: 9 };
    expect(await properties(grown, news)).toEqual({ snapshotRetention: "update" });
    expect(await properties(grown, news, program)).toEqual({ snapshotRetention: "update" });
    const plugin = detailedDiff(await runtime.volume.diff("vol_1", grown, news, program), program, news);
    expect(plugin.detailedDiff).toEqual({ snapshotRetention: "update" });
  });

  it("a restored volume's moved snapshotId beside another change: the other change only; the move a warning", async () => {
    const restored = { ...volumeOuts, snapshotId: "vs_1" };
    const news = { ...volumeIns, snapshotId: "vs_2", snapshotRetention: 9 };
    const outcome = await runtime.volume.diff("vol_1", restored, news, { ...volumeIns, snapshotId: "vs_1" });
    expect(outcome).toMatchObject({
      changes: true,
      replaces: [],
      properties: { snapshotId: "warn", snapshotRetention: "update" },
    });
    expect(detailedDiff(outcome, { ...volumeIns, snapshotId: "vs_1" }, news).detailedDiff).toEqual({
      snapshotRetention: "update",
    });
  });

  it("a program sizeGb raised below the platform's size is only warned about; above it, an update", async () => {
    expect(await properties(grown, { ...program, sizeGb: 5 })).toEqual({ sizeGb: "warn" });
    expect(await properties(grown, { ...program, sizeGb: 11 })).toEqual({ sizeGb: "update" });
  });
});

// A shrink is refused at check unless the plan replaces the volume: the same plan the diff
// answers (provider/model/change-plan), from the previous inputs at check, the outputs at diff.
describe("Volume: a shrink the plan's replace lifts", () => {
  const restoredIns = { ...volumeIns, snapshotId: "vs_1" };
  const restoredOuts = { ...volumeOuts, snapshotId: "vs_1" };
  const refusals = async (olds: Record<string, unknown>, news: Record<string, unknown>) =>
    (await runtime.volume.check(olds, news)).failures.filter((f) => f.property !== "");
  const cases: [
    string,
    Record<string, unknown>,
    Record<string, unknown>,
    Record<string, unknown>,
    string[],
  ][] = [
    [
      "a first restore",
      volumeIns,
      volumeOuts,
      { ...volumeIns, sizeGb: 5, snapshotId: "vs_1" },
      ["snapshotId"],
    ],
    [
      "replaceOnChanges naming sizeGb",
      volumeIns,
      volumeOuts,
      { ...volumeIns, sizeGb: 5, __replaceOnChanges: ["sizeGb"] },
      ["sizeGb"],
    ],
    [
      "a moved snapshotId with replaceOnChanges naming it",
      restoredIns,
      restoredOuts,
      { ...restoredIns, snapshotId: "vs_2", sizeGb: 5, __replaceOnChanges: ["snapshotId"] },
      ["snapshotId"],
    ],
    ["a new name", volumeIns, volumeOuts, { ...volumeIns, name: "data2", sizeGb: 5 }, ["name"]],
  ];
  for (const [what, oldIns, oldOuts, news, replaces] of cases) {
    it(`beside ${what}: check accepts it and the diff plans the replace`, async () => {
      expect(await refusals(oldIns, news)).toEqual([]);
      const outcome = await runtime.volume.diff("vol_1", oldOuts, news, oldIns);
      expect(outcome.replaces).toEqual(replaces);
    });
  }

  it("alone, or beside a restored volume's moved snapshotId (a warning, no replace): refused", async () => {
    const shrink = { property: "sizeGb", reason: "volumes can only grow: 10 GB → 5 GB" };
    expect(await refusals(volumeIns, { ...volumeIns, sizeGb: 5 })).toEqual([shrink]);
    expect(await refusals(restoredIns, { ...restoredIns, snapshotId: "vs_2", sizeGb: 5 })).toEqual([shrink]);
    expect(await refusals(volumeIns, { ...volumeIns, sizeGb: 5, __replaceOnChanges: ["fstype"] })).toEqual([
      shrink,
    ]);
  });
});
