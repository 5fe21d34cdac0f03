import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { PLATFORM_REGIONS, RETIRED_REGIONS } from "../../../sdk/schemas/regions";
import { startTestEmulator, type TestEmulator } from "../../support/emulator";

let t: TestEmulator;
const V = "/v1/apps/demo-app/volumes";

beforeAll(async () => {
  t = await startTestEmulator({ timing: { restoreDelayMs: 2000, snapshotListDelayMs: 1500 } });
  // Frozen virtual time: only advance() moves it, so the delay boundaries are exact.
  await t.control.time.speed(0);
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.control.reset();
});

const create = async (body: Record<string, unknown>) => {
  const res = await t.api("POST", V, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};

describe("volume create", () => {
  test("applies the defaults: 3 GB, encrypted, ext4, auto backup, retention 5, unique zone", async () => {
    const vol = await create({ name: "data" });
    expect(vol.id).toMatch(/^vol_[a-z0-9]+$/);
    expect(vol).toMatchObject({
      name: "data",
      state: "created",
      size_gb: 3,
      encrypted: true,
      region: "iad",
      snapshot_retention: 5,
      auto_backup_enabled: true,
      attached_machine_id: null,
      attached_alloc_id: null,
      host_dedication_key: "",
    });
    const get = await t.api("GET", `${V}/${vol.id}`);
    expect(get.body.fstype).toBe("ext4");
  });

  test("the create response carries zero block fields and an empty fstype; a later GET real values", async () => {
    const vol = await create({ name: "data", size_gb: 10 });
    expect(vol).toMatchObject({ blocks: 0, block_size: 0, blocks_free: 0, blocks_avail: 0, fstype: "" });
    const { body } = await t.api("GET", `${V}/${vol.id}`);
    expect(body.block_size).toBe(4096);
    expect(body.blocks).toBe((10 * 1024 ** 3) / 4096);
    expect(body.blocks_free).toBeGreaterThan(0);
    expect(body.blocks_avail).toBeLessThan(body.blocks_free);
    expect(body.fstype).toBe("ext4");
  });

  test("explicit fields are kept: size, region, encryption, fstype, retention, host dedication", async () => {
    const vol = await create({
      name: "logs",
      size_gb: 7,
      region: "ams",
      encrypted: false,
      fstype: "xfs",
      snapshot_retention: 60,
      auto_backup_enabled: false,
      compute: { cpu_kind: "performance", host_dedication_id: "hd-1" },
    });
    expect(vol).toMatchObject({ size_gb: 7, region: "ams", encrypted: false, snapshot_retention: 60 });
    expect(vol.auto_backup_enabled).toBe(false);
    expect(vol.host_dedication_key).toBe("hd-1");
    expect((await t.api("GET", `${V}/${vol.id}`)).body.fstype).toBe("xfs");
  });

  test.each([0, 61, 2.5])(
    "snapshot_retention %s is outside 1..60 and is rejected naming the field",
    async (retention) => {
      const res = await t.api("POST", V, { name: "data", snapshot_retention: retention });
      expect(res.status).toBe(400);
      expect(res.body.error).toContain("snapshot_retention");
    },
  );

  test("a missing name is rejected naming the field", async () => {
    const res = await t.api("POST", V, { size_gb: 3 });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^name:/);
  });

  test("an unknown app is a 404 that names it", async () => {
    const res = await t.api("POST", "/v1/apps/nope/volumes", { name: "data" });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'app "nope" not found' });
    expect((await t.api("GET", "/v1/apps/nope/volumes")).status).toBe(404);
  });

  test("an unknown volume id is a 404 that names it", async () => {
    const res = await t.api("GET", `${V}/vol_missing`);
    expect(res.status).toBe(404);
    expect(res.body.error).toContain('volume "vol_missing" not found');
  });
});

describe("require_unique_zone", () => {
  test("same-named volumes land on distinct zones until the region's 3 zones run out", async () => {
    const zones = new Set<string>();
    for (let i = 0; i < 3; i++) zones.add((await create({ name: "pg" })).zone);
    expect(zones.size).toBe(3);
    const fourth = await t.api("POST", V, { name: "pg" });
    expect(fourth.status).toBe(422);
    expect(fourth.body.error).toMatch(/no unique zone left for volume name "pg" in region "iad"/);
  });

  test("other names and require_unique_zone false are not limited by it", async () => {
    for (let i = 0; i < 3; i++) await create({ name: "pg" });
    expect((await t.api("POST", V, { name: "other" })).status).toBe(200);
    const shared = await create({ name: "pg", require_unique_zone: false });
    expect(shared.zone).toMatch(/^[0-9a-f]{4}$/);
  });

  test("a destroyed volume frees its zone", async () => {
    const vols = [];
    for (let i = 0; i < 3; i++) vols.push(await create({ name: "pg" }));
    await t.api("DELETE", `${V}/${vols[1].id}`);
    const again = await create({ name: "pg" });
    expect(again.zone).toBe(vols[1].zone);
  });
});

describe("list, update and delete", () => {
  test("list returns the app's volumes", async () => {
    const a = await create({ name: "a" });
    const b = await create({ name: "b" });
    const list = await t.api("GET", V);
    expect(list.status).toBe(200);
    expect(list.body.map((v: { id: string }) => v.id).sort()).toEqual([a.id, b.id].sort());
  });

  test("update changes auto_backup_enabled and snapshot_retention", async () => {
    const vol = await create({ name: "data" });
    const res = await t.api("PUT", `${V}/${vol.id}`, { auto_backup_enabled: false, snapshot_retention: 14 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ auto_backup_enabled: false, snapshot_retention: 14 });
    expect((await t.api("GET", `${V}/${vol.id}`)).body.snapshot_retention).toBe(14);
  });

  test("update rejects retention above 60 naming snapshot_retention", async () => {
    const vol = await create({ name: "data" });
    const res = await t.api("PUT", `${V}/${vol.id}`, { snapshot_retention: 90 });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain("snapshot_retention");
  });

  test("delete returns the volume destroyed with zero block fields; then it is gone from get and list", async () => {
    const vol = await create({ name: "data" });
    const del = await t.api("DELETE", `${V}/${vol.id}`);
    expect(del.status).toBe(200);
    expect(del.body).toMatchObject({ id: vol.id, state: "destroyed", blocks: 0, fstype: "" });
    expect((await t.api("GET", `${V}/${vol.id}`)).status).toBe(404);
    expect((await t.api("GET", V)).body).toEqual([]);
    expect((await t.api("DELETE", `${V}/${vol.id}`)).status).toBe(404);
    expect((await t.control.state()).volumes).toEqual([]);
  });
});

describe("extend", () => {
  test("extend grows the volume; the response has zero block fields and needs_restart false when detached", async () => {
    const vol = await create({ name: "data" });
    const res = await t.api("PUT", `${V}/${vol.id}/extend`, { size_gb: 5 });
    expect(res.status).toBe(200);
    expect(res.body.needs_restart).toBe(false);
    expect(res.body.volume).toMatchObject({ size_gb: 5, state: "created", blocks: 0, fstype: "" });
    expect((await t.api("GET", `${V}/${vol.id}`)).body.size_gb).toBe(5);
  });

  test("extend to an equal size is rejected: volumes only grow", async () => {
    const vol = await create({ name: "data", size_gb: 5 });
    const res = await t.api("PUT", `${V}/${vol.id}/extend`, { size_gb: 5 });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^volumes can only grow: /);
  });

  test("extend to a smaller size is rejected: volumes only grow", async () => {
    const vol = await create({ name: "data", size_gb: 5 });
    const res = await t.api("PUT", `${V}/${vol.id}/extend`, { size_gb: 3 });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^volumes can only grow: /);
    expect((await t.api("GET", `${V}/${vol.id}`)).body.size_gb).toBe(5);
  });

  test("extend needs a size_gb", async () => {
    const vol = await create({ name: "data" });
    const res = await t.api("PUT", `${V}/${vol.id}/extend`, {});
    expect(res.status).toBe(400);
    expect(res.body.error).toContain("size_gb");
  });

  test("needs_restart is true when the volume is attached to a machine", async () => {
    const vol = await create({ name: "data" });
    const att = await t.api("POST", `/__emulator/volumes/${vol.id}/attach`, { machine_id: "m_123" });
    expect(att.body.attached_machine_id).toBe("m_123");
    const res = await t.api("PUT", `${V}/${vol.id}/extend`, { size_gb: 4 });
    expect(res.body.needs_restart).toBe(true);
    await t.control.volumes.detach(vol.id);
    const again = await t.api("PUT", `${V}/${vol.id}/extend`, { size_gb: 6 });
    expect(again.body.needs_restart).toBe(false);
  });
});

describe("fork", () => {
  test("a fork copies region and size from its source", async () => {
    const src = await create({ name: "data", size_gb: 8, region: "ams" });
    const fork = await create({ name: "data-fork", source_volume_id: src.id });
    expect(fork).toMatchObject({ region: "ams", size_gb: 8, state: "created" });
    expect(fork.id).not.toBe(src.id);
  });

  test("forking an unknown source volume is a 404", async () => {
    const res = await t.api("POST", V, { name: "x", source_volume_id: "vol_nope" });
    expect(res.status).toBe(404);
    expect(res.body.error).toContain('volume "vol_nope" not found');
  });
});

describe("snapshots", () => {
  const snapshot = async (volId: string) => {
    const res = await t.api("POST", `${V}/${volId}/snapshots`);
    expect(res.status).toBe(200);
    return res.body.Msg.backup;
  };

  test("on-demand snapshot returns Msg.backup in state prepare and shows in the list after the delay", async () => {
    const vol = await create({ name: "data", snapshot_retention: 9 });
    const backup = await snapshot(vol.id);
    expect(backup).toMatchObject({
      app_id: "demo-app",
      volume_id: vol.id,
      state: "prepare",
      type: "BACKUP_TYPE_ON_DEMAND",
      message: "",
      finished_at: null,
    });
    expect(backup.graph_id).toMatch(/^vs_/);
    expect((await t.api("GET", `${V}/${vol.id}/snapshots`)).body).toEqual([]);
    await t.advance(1500);
    const list = await t.api("GET", `${V}/${vol.id}/snapshots`);
    expect(list.body).toHaveLength(1);
    expect(list.body[0]).toMatchObject({ id: backup.graph_id, retention_days: 9 });
    expect(list.body[0].size).toBeGreaterThan(0);
    expect(list.body[0].digest).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  test("refuses a region it does not know (400, naming it), as the platform does, and creates nothing", async () => {
    for (const region of ["mars", "ida"]) {
      const res = await t.api("POST", V, { name: "data", region });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(
        `region "${region}" is not a region of the platform (${PLATFORM_REGIONS.join(", ")})`,
      );
    }
    expect((await t.api("GET", V)).body).toEqual([]);
  });

  test("accepts every region of the shared list, the retired ones too", async () => {
    for (const region of [...PLATFORM_REGIONS, ...RETIRED_REGIONS]) {
      expect((await create({ name: `data_${region}`, region })).region).toBe(region);
    }
  });

  test("restoring from a snapshot needs region", async () => {
    const vol = await create({ name: "data" });
    const backup = await snapshot(vol.id);
    await t.advance(1500);
    const res = await t.api("POST", V, { name: "restored", snapshot_id: backup.graph_id });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain("region is required");
  });

  test("a restore is restoring, then created after the restore delay", async () => {
    const vol = await create({ name: "data", size_gb: 6 });
    const backup = await snapshot(vol.id);
    await t.advance(1500);
    const res = await t.api("POST", V, { name: "restored", snapshot_id: backup.graph_id, region: "iad" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ state: "restoring", size_gb: 6, blocks: 0, fstype: "" });
    expect((await t.api("GET", `${V}/${res.body.id}`)).body.state).toBe("restoring");
    await t.advance(1999);
    expect((await t.api("GET", `${V}/${res.body.id}`)).body.state).toBe("restoring");
    await t.advance(1);
    const got = await t.api("GET", `${V}/${res.body.id}`);
    expect(got.body.state).toBe("created");
    expect(got.body.blocks).toBeGreaterThan(0);
  });

  test("restoring from an unknown snapshot is a 404", async () => {
    const res = await t.api("POST", V, { name: "r", snapshot_id: "vs_nope", region: "iad" });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('snapshot "vs_nope" not found');
  });

  test("snapshots of a destroyed volume stay restorable until retention passes", async () => {
    const vol = await create({ name: "data", snapshot_retention: 1 });
    const backup = await snapshot(vol.id);
    await t.advance(1500);
    await t.api("DELETE", `${V}/${vol.id}`);
    const restored = await t.api("POST", V, { name: "r1", snapshot_id: backup.graph_id, region: "iad" });
    expect(restored.status).toBe(200);
    await t.advance(24 * 60 * 60 * 1000);
    const late = await t.api("POST", V, { name: "r2", snapshot_id: backup.graph_id, region: "iad" });
    expect(late.status).toBe(404);
    expect((await t.control.state()).snapshots).toEqual([]);
  });

  test("snapshots of an unknown volume are a 404", async () => {
    expect((await t.api("GET", `${V}/vol_nope/snapshots`)).status).toBe(404);
    expect((await t.api("POST", `${V}/vol_nope/snapshots`)).status).toBe(404);
  });
});
