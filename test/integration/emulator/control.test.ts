import { request } from "undici";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../support/emulator";

let t: TestEmulator;

beforeAll(async () => {
  t = await startTestEmulator({ token: "secret-token" });
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.api("POST", "/__emulator/reset");
});

describe("bearer auth", () => {
  test.each([
    ["GET", "/v1/apps/demo-app/volumes"],
    ["POST", "/v1/apps/demo-app/volumes"],
    ["GET", "/v1/apps/demo-app/certificates"],
    ["DELETE", "/v1/apps/demo-app/certificates/a.example.com"],
    ["POST", "/v1/postgres/demo-pg/users/app_user/rotate_password"],
    ["GET", "/__emulator/health"],
    ["GET", "/v1/unknown"],
  ])("%s %s without a token is 401 {error}", async (method, path) => {
    const res = await t.api(method, path, undefined, null);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: expect.stringContaining("bearer token") });
  });

  test("a wrong token is 401 and the right one passes", async () => {
    expect((await t.api("GET", "/__emulator/health", undefined, "secret-tokeX")).status).toBe(401);
    expect((await t.api("GET", "/__emulator/health", undefined, "secret")).status).toBe(401);
    const ok = await t.api("GET", "/__emulator/health");
    expect(ok).toMatchObject({ status: 200, body: { ok: true } });
  });

  const withHeader = async (authorization: string, path = "/v1/apps/demo-app/volumes") => {
    const res = await request(`${t.emu.url}${path}`, { headers: { authorization } });
    const text = await res.body.text();
    return { status: res.statusCode, headers: res.headers, body: JSON.parse(text) };
  };

  test.each([
    "Bearer secret-token",
    "FlyV1 secret-token",
    "bearer secret-token",
    "BEARER secret-token",
    "flyv1 secret-token",
    "FLYV1 secret-token",
  ])("the official client's schemes are accepted, compared case-insensitively: %s", async (header) => {
    expect((await withHeader(header)).status).toBe(200);
  });

  test.each([
    ["Basic secret-token", "scheme"],
    ["Token secret-token", "scheme"],
    ["secret-token", "scheme"],
    ["FlyV1 wrong-token", "not valid"],
    ["Bearer secret-token-and-more", "not valid"],
    ["FlyV1", "scheme"],
  ])("anything else is still 401: %s", async (header, message) => {
    const res = await withHeader(header);
    expect(res.status).toBe(401);
    expect(res.body.error).toContain(message);
  });

  test("every response carries an x-request-id, a different one per request, 401 and 404 included", async () => {
    const ids = [
      (await withHeader("Bearer secret-token")).headers["x-request-id"],
      (await withHeader("Bearer secret-token")).headers["x-request-id"],
      (await withHeader("Bearer nope")).headers["x-request-id"],
      (await withHeader("Bearer secret-token", "/v1/nothing")).headers["x-request-id"],
    ];
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{12}-[0-9a-z]+$/);
    expect(new Set(ids).size).toBe(4);
  });

  test("an unknown route is a 404 {error}", async () => {
    const res = await t.api("GET", "/v1/nothing/here");
    expect(res.status).toBe(404);
    expect(res.body.error).toContain("no route GET /v1/nothing/here");
  });

  test("malformed JSON is a 400 {error}", async () => {
    const res = await t.api("POST", "/v1/apps/demo-app/volumes", "{nope");
    expect(res.status).toBe(400);
    expect(res.body.error).toContain("not valid JSON");
  });
});

describe("control API", () => {
  test("the request log records method, path and status, never headers; it can be cleared", async () => {
    await t.api("DELETE", "/__emulator/requests");
    await t.api("GET", "/v1/apps/demo-app/volumes?x=1");
    await t.api("GET", "/v1/apps/ghost/volumes");
    const log = await t.api("GET", "/__emulator/requests");
    expect(log.body.requests).toEqual([
      { method: "GET", path: "/v1/apps/demo-app/volumes", status: 200, at: expect.any(String) },
      { method: "GET", path: "/v1/apps/ghost/volumes", status: 404, at: expect.any(String) },
    ]);
    expect(JSON.stringify(log.body)).not.toContain("secret-token");
    await t.api("DELETE", "/__emulator/requests");
    expect((await t.api("GET", "/__emulator/requests")).body.requests).toEqual([]);
  });

  test("time can be read, advanced and sped up", async () => {
    const before = (await t.api("GET", "/__emulator/time")).body;
    expect(Date.parse(before.now)).not.toBeNaN();
    const after = (await t.api("POST", "/__emulator/time/advance", { ms: 3_600_000 })).body;
    expect(after.nowMs - before.nowMs).toBeGreaterThanOrEqual(3_600_000);
    const speed = await t.api("PUT", "/__emulator/time/speed", { factor: 10 });
    expect(speed.body.factor).toBe(10);
    await t.api("PUT", "/__emulator/time/speed", { factor: 1 });
    expect((await t.api("POST", "/__emulator/time/advance", { ms: -1 })).status).toBe(400);
  });

  test("state dump and reset: reset returns to the seed with nothing left behind", async () => {
    await t.api("POST", "/v1/apps/demo-app/volumes", { name: "data" });
    await t.api("POST", "/v1/apps/demo-app/certificates/acme", { hostname: "a.example.com" });
    await t.api("POST", "/__emulator/postgres/demo-pg/state", { state: "deleted" });
    const dump = (await t.api("GET", "/__emulator/state")).body;
    expect(dump.volumes).toHaveLength(1);
    expect(dump.certificates).toHaveLength(1);
    expect(dump.postgres[0].state).toBe("deleted");
    await t.api("POST", "/__emulator/reset");
    const clean = (await t.api("GET", "/__emulator/state")).body;
    expect(clean).toMatchObject({ volumes: [], snapshots: [], certificates: [], tasks: [], dns: [] });
    expect(clean.apps.map((a: { name: string }) => a.name)).toEqual(["demo-app"]);
    expect(clean.postgres[0]).toMatchObject({ name: "demo-pg", state: "ready" });
  });

  test("attach and detach of an unknown volume are 404", async () => {
    expect((await t.api("POST", "/__emulator/volumes/vol_x/attach", { machine_id: "m" })).status).toBe(404);
    expect((await t.api("POST", "/__emulator/volumes/vol_x/detach")).status).toBe(404);
  });

  test("control bodies are validated: DNS record type", async () => {
    const res = await t.api("PUT", "/__emulator/dns", { records: [{ type: "MX", name: "a", value: "b" }] });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain("records.0.type");
  });
});
