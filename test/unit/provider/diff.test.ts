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
  const cases: [string, Record<string, unknown>, { changes: boolean; replaces: string[] }][] = [
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
  for (const [rule, news, expected] of cases) {
    it(rule, async () => {
      const result = await runtime.volume.diff("vol_1", volumeOuts, news);
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
      "another volume takes a new snapshot",
      { app: "demo-app", volumeId: "vol_2", triggers: { n: "1" } },
      { changes: true, replaces: ["volumeId"] },
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
