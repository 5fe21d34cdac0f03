/**
 * `responses: "sparse"`: every member the real platform may omit or null is omitted or null, with
 * the form the emulator README's table gives; the sdk's response schemas still accept each answer.
 */
import { request } from "undici";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import {
  CertificateCheckResponseSchema,
  CertificateDetailsSchema,
  CertificateListResponseSchema,
  ExtendVolumeResponseSchema,
  OnDemandSnapshotResponseSchema,
  SnapshotListSchema,
  TaskListSchema,
  VolumeListSchema,
  VolumeSchema,
} from "../../../sdk/schemas";
import { makeCert, type TestCert } from "../../support/certs";
import { startTestEmulator, type TestEmulator } from "../../support/emulator";

let t: TestEmulator;
let cert: TestCert;
const V = "/v1/apps/demo-app/volumes";
const C = "/v1/apps/demo-app/certificates";

beforeAll(async () => {
  t = await startTestEmulator({ responses: "sparse", timing: { snapshotListDelayMs: 0, restoreDelayMs: 0 } });
  cert = await makeCert("app.example.com");
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.control.reset();
});

const ok = async (method: string, path: string, body?: unknown) => {
  const res = await t.api(method, path, body);
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
  return res.body;
};

describe("sparse volumes", () => {
  test("an unattached volume: attached_machine_id null, attached_alloc_id left out, spec members kept", async () => {
    const created = await ok("POST", V, { name: "data" });
    for (const vol of [created, await ok("GET", `${V}/${created.id}`), (await ok("GET", V))[0]]) {
      expect(vol.attached_machine_id).toBeNull();
      expect(vol).not.toHaveProperty("attached_alloc_id");
      expect(vol).toMatchObject({ name: "data", host_dedication_key: "", snapshot_retention: 5 });
      expect(VolumeSchema.parse(vol)).toMatchObject({ attached_alloc_id: null });
    }
    // Fresh answers carry zero block fields and an empty fstype, as in both modes (spec 2.2).
    expect(created).toMatchObject({ blocks: 0, block_size: 0, blocks_free: 0, blocks_avail: 0, fstype: "" });
  });

  test("an attached volume names its machine; extend and delete answers are sparse too", async () => {
    const vol = await ok("POST", V, { name: "data" });
    await t.control.volumes.attach(vol.id, "m-1");
    const extended = await ok("PUT", `${V}/${vol.id}/extend`, { size_gb: 5 });
    expect(extended.volume.attached_machine_id).toBe("m-1");
    expect(extended.volume).not.toHaveProperty("attached_alloc_id");
    expect(ExtendVolumeResponseSchema.parse(extended).needs_restart).toBe(true);
    const deleted = await ok("DELETE", `${V}/${vol.id}`);
    expect(deleted).toMatchObject({ state: "destroyed" });
    expect(deleted).not.toHaveProperty("attached_alloc_id");
  });

  test("an empty volume list and an empty snapshot list are null (a Go nil slice)", async () => {
    expect(await ok("GET", V)).toBeNull();
    expect(VolumeListSchema.parse(null)).toEqual([]);
    const vol = await ok("POST", V, { name: "data" });
    expect(await ok("GET", `${V}/${vol.id}/snapshots`)).toBeNull();
  });

  test("snapshot list entries leave out retention_days; the on-demand backup has finished_at null and no message", async () => {
    const vol = await ok("POST", V, { name: "data" });
    const snap = await ok("POST", `${V}/${vol.id}/snapshots`);
    expect(snap.Msg.backup.finished_at).toBeNull();
    expect(snap.Msg.backup).not.toHaveProperty("message");
    expect(snap.Msg.backup).toMatchObject({ state: "prepare", type: "BACKUP_TYPE_ON_DEMAND" });
    expect(OnDemandSnapshotResponseSchema.parse(snap).Msg.backup.message).toBe("");
    const list = await ok("GET", `${V}/${vol.id}/snapshots`);
    expect(list).toHaveLength(1);
    expect(list[0]).not.toHaveProperty("retention_days");
    expect(list[0].id).toBe(snap.Msg.backup.graph_id);
    expect(SnapshotListSchema.parse(list)[0]?.retention_days).toBeNull();
  });
});

describe("sparse certificates", () => {
  test("ACME request: no dns_provider, rate_limited_until null, certificates null, no validation_errors", async () => {
    const body = await ok("POST", `${C}/acme`, { hostname: "app.example.com" });
    expect(body).not.toHaveProperty("dns_provider");
    expect(body).not.toHaveProperty("validation_errors");
    expect(body.rate_limited_until).toBeNull();
    expect(body.certificates).toBeNull();
    expect(body).toMatchObject({ status: "pending_validation", acme_requested: true, configured: false });
    expect(body.dns_requirements.cname).toBe("demo-app.platform.internal");
    expect(CertificateDetailsSchema.parse(body)).toMatchObject({
      dns_provider: null,
      certificates: [],
      validation_errors: [],
    });
  });

  test("certificate entries: created_at null, expires_at, issuer and certificate_authority left out, empty issued null", async () => {
    const host = "app.example.com";
    const imported = await ok("POST", `${C}/custom`, {
      hostname: host,
      fullchain: cert.cert,
      private_key: cert.key,
    });
    const [customEntry] = imported.certificates;
    expect(customEntry).toMatchObject({ source: "custom", status: "pending_ownership", created_at: null });
    expect(customEntry).not.toHaveProperty("expires_at");
    expect(customEntry).not.toHaveProperty("issuer");
    expect(customEntry.issued).toBeNull();

    await ok("POST", `${C}/acme`, { hostname: host });
    const req = imported.dns_requirements;
    await t.control.dns.set([
      { type: "CNAME", name: req.acme_challenge.name, value: req.acme_challenge.target },
      { type: "TXT", name: req.ownership.name, value: req.ownership.app_value },
    ]);
    await ok("POST", `${C}/${host}/check`);
    const details = await ok("GET", `${C}/${host}`);
    const platform = details.certificates.find((c: { source: string }) => c.source === "platform");
    expect(platform).toMatchObject({ status: "active", created_at: null });
    expect(platform).not.toHaveProperty("expires_at");
    expect(platform.issued).toHaveLength(1);
    expect(platform.issued[0]).toMatchObject({ type: "ecdsa", expires_at: expect.any(String) });
    expect(platform.issued[0]).not.toHaveProperty("certificate_authority");
    const parsed = CertificateDetailsSchema.parse(details);
    expect(parsed.certificates.map((c) => [c.source, c.expires_at, c.issuer])).toEqual([
      ["custom", null, null],
      ["platform", null, null],
    ]);
    expect(parsed.certificates[1]?.issued[0]?.certificate_authority).toBeNull();
  });

  test("check with nothing in DNS: soa, acme_challenge_cname, ownership_txt and the empty lists are null", async () => {
    await ok("POST", `${C}/acme`, { hostname: "nothing.example.org" });
    const body = await ok("POST", `${C}/nothing.example.org/check`);
    expect(body.dns_records).toEqual({
      a: null,
      aaaa: null,
      cname: null,
      resolved_addresses: null,
      soa: null,
      acme_challenge_cname: null,
      ownership_txt: null,
    });
    expect(body.validation_errors).toHaveLength(1);
    expect(CertificateCheckResponseSchema.parse(body).dns_records).toMatchObject({ a: [], soa: null });
  });

  test("check with records present: the found values are kept, the missing ones null", async () => {
    const acme = await ok("POST", `${C}/acme`, { hostname: "www.example.net" });
    await t.control.dns.set([{ type: "A", name: "www.example.net", value: acme.dns_requirements.a[0] }]);
    const body = await ok("POST", `${C}/www.example.net/check`);
    expect(body.dns_records).toMatchObject({
      a: [acme.dns_requirements.a[0]],
      aaaa: null,
      soa: expect.stringContaining("example.net"),
      acme_challenge_cname: null,
      ownership_txt: null,
    });
    expect(body.status).toBe("active");
  });

  test("delete-kind answers leave out dns_provider and rate_limited_until", async () => {
    await ok("POST", `${C}/acme`, { hostname: "app.example.com" });
    const body = await ok("DELETE", `${C}/app.example.com/acme`);
    expect(body).not.toHaveProperty("dns_provider");
    expect(body).not.toHaveProperty("rate_limited_until");
    expect(CertificateDetailsSchema.parse(body)).toMatchObject({
      status: "not_configured",
      dns_provider: null,
    });
  });

  test("list: entries without dns_provider; total_count left out when zero; certificates null when empty", async () => {
    const empty = await ok("GET", C);
    expect(empty).toEqual({ certificates: null });
    expect(CertificateListResponseSchema.parse(empty)).toEqual({
      certificates: [],
      total_count: 0,
      next_cursor: null,
    });
    await ok("POST", `${C}/acme`, { hostname: "a.example.com" });
    await ok("POST", `${C}/acme`, { hostname: "b.example.com" });
    const page = await ok("GET", `${C}?limit=1`);
    expect(page.total_count).toBe(2);
    expect(page.next_cursor).toEqual(expect.any(String));
    expect(page.certificates[0]).not.toHaveProperty("dns_provider");
    expect(page.certificates[0]).toMatchObject({ hostname: "a.example.com", acme_requested: true });
    const last = await ok("GET", `${C}?limit=1&cursor=${page.next_cursor}`);
    expect(last).not.toHaveProperty("next_cursor");
    expect(CertificateListResponseSchema.parse(last).certificates[0]?.dns_provider).toBeNull();
  });
});

describe("sparse task list and event stream", () => {
  test("an empty task list is { tasks: null }", async () => {
    const res = await t.task("GET", "/v1/tasks");
    expect(res.body).toEqual({ tasks: null });
    expect(TaskListSchema.parse(res.body)).toEqual({ tasks: [] });
    await t.task("POST", "/v1/tasks", { name: "deploy", expire: 60 });
    expect((await t.task("GET", "/v1/tasks")).body.tasks).toHaveLength(1);
  });

  test("the primary's init and its own primaryChange leave the empty hostname out", async () => {
    const res = await request(t.emu.eventsUrl);
    const lines: unknown[] = [];
    let buffer = "";
    const seen = new Promise<void>((resolve) => {
      res.body.setEncoding("utf8");
      res.body.on("data", (chunk: string) => {
        buffer += chunk;
        const parts = buffer.split("\n");
        buffer = parts.pop() ?? "";
        for (const line of parts) lines.push(JSON.parse(line));
        if (lines.length >= 2) resolve();
      });
      res.body.on("error", () => {});
    });
    // Fail over away and back: the primary first loses, then regains its status.
    await t.control.db.failover("node-b");
    await t.control.db.failover("node-a");
    await seen;
    await expect.poll(() => lines.length).toBe(3);
    res.body.destroy();
    const nodes = await t.control.db.nodes();
    expect(lines).toEqual([
      { type: "init", data: { isPrimary: true } },
      { type: "primaryChange", data: { isPrimary: false, hostname: nodes[1]?.hostname } },
      { type: "primaryChange", data: { isPrimary: true } },
    ]);
  });
});
