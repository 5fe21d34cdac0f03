import { describe, expect, it } from "vitest";
import * as runtime from "../../../provider/runtime";
import { UNKNOWN } from "../../../provider/validation";

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

describe("certificate diffs", () => {
  const acmeOuts = {
    app: "demo-app",
    hostname: "a.example.com",
    status: "pending_validation",
    acmeRequested: true,
  };
  const customOuts = { ...acmeOuts, fullchain: "CHAIN", privateKey: "KEY" };
  const cases: [
    string,
    "acme" | "custom",
    Record<string, unknown>,
    { changes: boolean; replaces: string[] },
  ][] = [
    [
      "ACME: no change",
      "acme",
      { app: "demo-app", hostname: "a.example.com" },
      { changes: false, replaces: [] },
    ],
    [
      "ACME: a new hostname replaces",
      "acme",
      { app: "demo-app", hostname: "b.example.com" },
      { changes: true, replaces: ["hostname"] },
    ],
    [
      "ACME: a new app replaces",
      "acme",
      { app: "x", hostname: "a.example.com" },
      { changes: true, replaces: ["app"] },
    ],
    [
      "ACME: waitForActive changes in place",
      "acme",
      { app: "demo-app", hostname: "a.example.com", waitForActive: true },
      { changes: true, replaces: [] },
    ],
    [
      "custom: no change",
      "custom",
      { app: "demo-app", hostname: "a.example.com", fullchain: "CHAIN", privateKey: "KEY" },
      { changes: false, replaces: [] },
    ],
    [
      "custom: a new chain and key re-import in place",
      "custom",
      { app: "demo-app", hostname: "a.example.com", fullchain: "CHAIN2", privateKey: "KEY2" },
      { changes: true, replaces: [] },
    ],
    [
      "custom: a new hostname replaces",
      "custom",
      { app: "demo-app", hostname: "b.example.com", fullchain: "CHAIN", privateKey: "KEY" },
      { changes: true, replaces: ["hostname"] },
    ],
  ];
  for (const [rule, kind, news, expected] of cases) {
    it(rule, async () => {
      const result =
        kind === "acme"
          ? await runtime.acmeCertificate.diff("a.example.com", acmeOuts, news)
          : await runtime.customCertificate.diff("a.example.com", customOuts, news);
      expect({ changes: result.changes, replaces: result.replaces }).toEqual(expected);
    });
  }
});

describe("PostgresPasswordRotation diff", () => {
  const outs = {
    clusterId: "demo-pg",
    username: "app_user",
    password: "p",
    rotatedAt: "t",
    triggers: { v: "1" },
  };
  const ins = { clusterId: "demo-pg", username: "app_user", triggers: { v: "1" } };
  const cases: [string, Record<string, unknown>, { changes: boolean; replaces: string[] }][] = [
    ["no change with the same inputs", ins, { changes: false, replaces: [] }],
    [
      "a new trigger value rotates again (replace)",
      { ...ins, triggers: { v: "2" } },
      { changes: true, replaces: ["triggers"] },
    ],
    [
      "removing triggers rotates again (replace)",
      { clusterId: "demo-pg", username: "app_user" },
      { changes: true, replaces: ["triggers"] },
    ],
    [
      "another user rotates (replace)",
      { ...ins, username: "other" },
      { changes: true, replaces: ["username"] },
    ],
    [
      "another cluster rotates (replace)",
      { ...ins, clusterId: "pg2" },
      { changes: true, replaces: ["clusterId"] },
    ],
    [
      "killSessions alone is recorded in place, no rotation",
      { ...ins, killSessions: true },
      { changes: true, replaces: [] },
    ],
  ];
  for (const [rule, news, expected] of cases) {
    it(rule, async () => {
      const result = await runtime.postgresPasswordRotation.diff("id", outs, news);
      expect({ changes: result.changes, replaces: result.replaces }).toEqual(expected);
    });
  }

  // The schedule is computed by check from the recorded inputs, then diff plans it.
  const DAY = 86_400_000;
  const iso = (offsetDays: number) => new Date(Date.now() + offsetDays * DAY).toISOString();
  const recorded = (dueInDays: number, rotationDays = 30, scheduledRotations = 0) => ({
    ...ins,
    rotationDays,
    nextRotationAt: iso(dueInDays),
    scheduledRotations,
  });
  const plan = async (oldInputs: Record<string, unknown>, program: Record<string, unknown>) => {
    // (Its only failure here is the missing API token of this test's process.)
    const checked = await runtime.postgresPasswordRotation.check(oldInputs, program);
    const result = await runtime.postgresPasswordRotation.diff(
      "id",
      { ...outs, ...oldInputs },
      checked.inputs,
    );
    return { changes: result.changes, replaces: result.replaces, inputs: checked.inputs };
  };
  it("a new rotation's schedule starts now", async () => {
    const { inputs } = await plan({}, { ...ins, rotationDays: 30 });
    expect(Date.parse(String(inputs.nextRotationAt)) - Date.now()).toBeGreaterThan(29.9 * DAY);
    expect(inputs.scheduledRotations).toBe(0);
  });
  it("not due before rotationDays have passed", async () => {
    expect(await plan(recorded(1), { ...ins, rotationDays: 30 })).toMatchObject({
      changes: false,
      replaces: [],
    });
  });
  it("rotates (replace) once rotationDays have passed, and the next period starts now", async () => {
    const due = await plan(recorded(-1, 30, 2), { ...ins, rotationDays: 30 });
    expect(due).toMatchObject({ changes: true, replaces: ["rotationDays"] });
    expect(due.inputs.scheduledRotations).toBe(3);
    expect(Date.parse(String(due.inputs.nextRotationAt)) - Date.now()).toBeGreaterThan(29.9 * DAY);
  });
  it("a shorter period that is already due rotates", async () => {
    // Last rotation 50 days ago with a 90-day period; 30 days have passed since.
    expect(await plan(recorded(40, 90), { ...ins, rotationDays: 30 })).toMatchObject({
      changes: true,
      replaces: ["rotationDays"],
    });
  });
  it("a longer period not yet due is recorded in place, counted from the last rotation", async () => {
    const longer = await plan(recorded(10, 30), { ...ins, rotationDays: 90 });
    expect(longer).toMatchObject({ changes: true, replaces: [] });
    expect(Date.parse(String(longer.inputs.nextRotationAt)) - Date.now()).toBeCloseTo(70 * DAY, -5);
  });
  it("without rotationDays time never rotates", async () => {
    expect(await plan({ ...ins }, ins)).toMatchObject({ changes: false, replaces: [] });
  });
  it("removing rotationDays is recorded in place, no rotation", async () => {
    expect(await plan(recorded(-400), ins)).toMatchObject({ changes: true, replaces: [] });
  });
  it("an unknown rotationDays is an update, never a replace", async () => {
    const result = await runtime.postgresPasswordRotation.diff(
      "id",
      { ...outs, ...recorded(-1) },
      {
        ...ins,
        rotationDays: UNKNOWN,
      },
    );
    expect({ changes: result.changes, replaces: result.replaces }).toEqual({ changes: true, replaces: [] });
  });
  it("a refresh's diff (recorded inputs against refreshed outputs) never plans a rotation, even when due", async () => {
    const overdue = recorded(-100);
    const read = await runtime.postgresPasswordRotation.read("id", { ...outs, ...overdue });
    expect(read.inputs).toMatchObject(overdue);
    const result = await runtime.postgresPasswordRotation.diff("id", read.props, overdue);
    expect(result.changes).toBe(false);
  });
  it("treats an empty triggers map like none", async () => {
    const result = await runtime.postgresPasswordRotation.diff(
      "id",
      { clusterId: "c", username: "u" },
      { clusterId: "c", username: "u", triggers: {} },
    );
    expect(result.changes).toBe(false);
  });
});

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
