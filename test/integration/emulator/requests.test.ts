/**
 * The emulator accepts what real clients send: the platform's official client marshals every
 * unset optional member as `null` and an unset region as `""`. Validation stays strict about
 * wrong types and out-of-range values.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../support/emulator";

let t: TestEmulator;
const V = "/v1/apps/demo-app/volumes";
const C = "/v1/apps/demo-app/certificates";

beforeAll(async () => {
  t = await startTestEmulator({ timing: { snapshotListDelayMs: 0, restoreDelayMs: 0 } });
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.control.reset();
});

/** A create body as the official client writes it when only the name is set. */
const allUnset = {
  name: "data",
  region: "",
  size_gb: null,
  encrypted: null,
  fstype: null,
  require_unique_zone: null,
  snapshot_retention: null,
  auto_backup_enabled: null,
  snapshot_id: null,
  source_volume_id: null,
  machines_only: null,
  compute: null,
  compute_image: "",
  unique_zone_app_wide: null,
};

describe("null means absent in requests", () => {
  test("a volume create with every optional member null and region empty gets the defaults", async () => {
    const res = await t.api("POST", V, allUnset);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      name: "data",
      region: "iad",
      size_gb: 3,
      encrypted: true,
      snapshot_retention: 5,
      auto_backup_enabled: true,
      host_dedication_key: "",
    });
  });

  test("null members inside compute are absent too; the others are kept", async () => {
    const res = await t.api("POST", V, {
      ...allUnset,
      compute: {
        cpu_kind: null,
        cpus: null,
        memory_mb: 1024,
        host_dedication_id: "dedicated-1",
        kernel_args: null,
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.host_dedication_key).toBe("dedicated-1");
  });

  test("a fork with an empty region takes the source volume's region", async () => {
    const source = (await t.api("POST", V, { name: "src", region: "ams", size_gb: 4 })).body;
    const res = await t.api("POST", V, { ...allUnset, name: "fork", source_volume_id: source.id });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ region: "ams", size_gb: 4 });
  });

  test("a restore with an empty region is still 400: a snapshot restore needs a region", async () => {
    const vol = (await t.api("POST", V, { name: "src" })).body;
    const snap = (await t.api("POST", `${V}/${vol.id}/snapshots`)).body;
    const res = await t.api("POST", V, { ...allUnset, snapshot_id: snap.Msg.backup.graph_id });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain("region is required");
  });

  test("a volume update changes one setting and leaves the null one as it was", async () => {
    const vol = (await t.api("POST", V, { name: "data", auto_backup_enabled: false })).body;
    const res = await t.api("PUT", `${V}/${vol.id}`, { auto_backup_enabled: null, snapshot_retention: 12 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ snapshot_retention: 12, auto_backup_enabled: false });
    const again = await t.api("PUT", `${V}/${vol.id}`, {
      auto_backup_enabled: true,
      snapshot_retention: null,
    });
    expect(again.body).toMatchObject({ snapshot_retention: 12, auto_backup_enabled: true });
  });

  test("extend and certificate requests ignore null optional members", async () => {
    const vol = (await t.api("POST", V, { name: "data" })).body;
    const extended = await t.api("PUT", `${V}/${vol.id}/extend`, { size_gb: 5, extra: null });
    expect(extended.status).toBe(200);
    const acme = await t.api("POST", `${C}/acme`, { hostname: "app.example.com", extra: null });
    expect(acme.status).toBe(201);
  });

  test("empty query values of the certificate list are parameters not given", async () => {
    await t.api("POST", `${C}/acme`, { hostname: "app.example.com" });
    const res = await t.api("GET", `${C}?filter=&cursor=&limit=`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.total_count).toBe(1);
  });
});

describe("validation stays strict about types and ranges", () => {
  test.each([
    [{ name: "d", encrypted: "yes" }, "encrypted"],
    [{ name: "d", size_gb: "3" }, "size_gb"],
    [{ name: "d", snapshot_retention: 61 }, "snapshot_retention"],
    [{ name: "d", region: 5 }, "region"],
    [{ name: "d", compute: { cpu_kind: "huge" } }, "compute.cpu_kind"],
    [{ name: "d", compute: "big" }, "compute"],
    [{ name: null }, "name"],
    [{ name: "" }, "name"],
  ])("volume create %j is 400 naming %s", async (body, field) => {
    const res = await t.api("POST", V, body);
    expect(res.status).toBe(400);
    expect(res.body.error).toContain(`${field}:`);
  });

  test("a null required member is 400 naming it: extend size_gb, ACME hostname", async () => {
    const vol = (await t.api("POST", V, { name: "data" })).body;
    const extend = await t.api("PUT", `${V}/${vol.id}/extend`, { size_gb: null });
    expect(extend.status).toBe(400);
    expect(extend.body.error).toContain("size_gb");
    const acme = await t.api("POST", `${C}/acme`, { hostname: null });
    expect(acme.status).toBe(400);
    expect(acme.body.error).toContain("hostname");
  });

  test("update with a wrong type is 400", async () => {
    const vol = (await t.api("POST", V, { name: "data" })).body;
    const res = await t.api("PUT", `${V}/${vol.id}`, { auto_backup_enabled: "no" });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain("auto_backup_enabled");
  });
});
