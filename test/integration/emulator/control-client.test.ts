import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { type ControlClient, createControlClient } from "../../../emulator";
import { startTestEmulator, type TestEmulator } from "../../support/emulator";

let t: TestEmulator;
let c: ControlClient;

beforeAll(async () => {
  t = await startTestEmulator({ token: "secret-token" });
  c = createControlClient(`${t.emu.url}/`, t.emu.token);
});
afterAll(() => t.close());
beforeEach(() => t.reset());

describe("createControlClient", () => {
  test("health, and a wrong token rejects naming method, path, status and body", async () => {
    expect(await c.health()).toEqual({ ok: true });
    const wrong = createControlClient(t.emu.url, "nope");
    await expect(wrong.health()).rejects.toThrow(
      /^emulator control GET \/__emulator\/health: 401 \{"error":"unauthorized: the bearer token is not valid"\}$/,
    );
  });

  test("dns: set, list, clear", async () => {
    const record = { type: "TXT" as const, name: "_x.example.com", value: "v" };
    expect(await c.dns.set([record])).toEqual([record]);
    expect(await c.dns.list()).toEqual([record]);
    await c.dns.clear();
    expect(await c.dns.list()).toEqual([]);
    await expect(c.dns.set([{ type: "MX" as "A", name: "a", value: "b" }])).rejects.toThrow(
      /PUT \/__emulator\/dns: 400 .*records\.0\.type/,
    );
  });

  test("postgres state and admin", async () => {
    expect(await c.postgres.setState("demo-pg", "deleting")).toEqual({ name: "demo-pg", state: "deleting" });
    expect(await c.postgres.setAdmin("demo-pg", { available: false, retryAfterSeconds: 5 })).toEqual({
      name: "demo-pg",
      available: false,
      retryAfterSeconds: 5,
    });
    await expect(c.postgres.setState("ghost", "ready")).rejects.toThrow(/: 404 .*ghost/);
  });

  test("attach and detach a volume", async () => {
    const created = await t.api("POST", "/v1/apps/demo-app/volumes", { name: "data" });
    const attached = await c.volumes.attach(created.body.id, "m1");
    expect(attached.attached_machine_id).toBe("m1");
    expect((await c.volumes.detach(created.body.id)).attached_machine_id).toBeNull();
    await expect(c.volumes.attach("vol_x", "m")).rejects.toThrow(
      /POST \/__emulator\/volumes\/vol_x\/attach: 404/,
    );
  });

  test("time: get, advance, speed", async () => {
    const before = await c.time.get();
    expect(Date.parse(before.now)).not.toBeNaN();
    const after = await c.time.advance(3_600_000);
    expect(after.nowMs - before.nowMs).toBeGreaterThanOrEqual(3_600_000);
    expect((await c.time.speed(10)).factor).toBe(10);
    expect((await c.time.speed(1)).factor).toBe(1);
    await expect(c.time.advance(-1)).rejects.toThrow(/: 400 /);
  });

  test("faults: add, list, clear", async () => {
    const added = await c.faults.add({ kind: "status", status: 503, method: "GET", times: 2 });
    expect(added.fault).toMatchObject({ id: added.id, kind: "status", status: 503, remaining: 2 });
    expect((await c.faults.list()).map((f) => f.id)).toEqual([added.id]);
    expect((await t.api("GET", "/v1/apps/demo-app/volumes")).status).toBe(503);
    await c.faults.clear();
    expect(await c.faults.list()).toEqual([]);
  });

  test("requests: list and clear", async () => {
    await c.requests.clear();
    await t.api("GET", "/v1/apps/ghost/volumes");
    expect(await c.requests.list()).toEqual([
      { method: "GET", path: "/v1/apps/ghost/volumes", status: 404, at: expect.any(String) },
    ]);
    await c.requests.clear();
    expect(await c.requests.list()).toEqual([]);
  });

  test("rate limit: get and set, and reset restores the start-up limit", async () => {
    expect(await c.rateLimit.get()).toBeNull();
    expect(await c.rateLimit.set(20)).toBe(20);
    expect(await c.rateLimit.get()).toBe(20);
    await c.reset();
    expect(await c.rateLimit.get()).toBeNull();
  });

  test("state dump and reset", async () => {
    await t.api("POST", "/v1/apps/demo-app/volumes", { name: "data" });
    expect((await c.state()).volumes).toHaveLength(1);
    await c.reset();
    expect(await c.state()).toMatchObject({
      volumes: [],
      snapshots: [],
      certificates: [],
      tasks: [],
      dns: [],
    });
  });

  test("instance: get and wake", async () => {
    await c.time.advance(60_000);
    expect((await c.instance.get()).stage).toBe("cold");
    expect(await c.instance.wake()).toEqual({ stage: "running", liveTasks: 0, idleMs: 0 });
  });

  test("db: tx, nodes, failover, disconnect, connect", async () => {
    const position = await c.db.tx({ db: "app.db", count: 3 });
    expect(position).toMatchObject({ db: "app.db", txID: "0000000000000003" });
    const nodes = await c.db.nodes();
    expect(nodes.map((n) => n.isPrimary)).toContain(true);
    expect(nodes[0]?.eventsUrl).toMatch(/^http:\/\/.*\/events$/);
    const replica = nodes.find((n) => !n.isPrimary)?.name as string;
    expect((await c.db.disconnect(replica)).connected).toBe(false);
    expect((await c.db.connect(replica)).connected).toBe(true);
    expect(await c.db.failover(replica)).toEqual({ primary: replica });
    const primary = (await c.db.nodes()).find((n) => n.isPrimary)?.name;
    expect(primary).toBe(replica);
    await expect(c.db.disconnect(replica)).rejects.toThrow(/disconnect: 409/);
  });
});
