import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../support/emulator";

let t: TestEmulator;
const rotate = (user: string, body?: unknown, cluster = "demo-pg", token?: string | null) =>
  t.api("POST", `/v1/postgres/${cluster}/users/${user}/rotate_password`, body, token);

beforeAll(async () => {
  t = await startTestEmulator({
    seed: { postgres: [{ name: "other-pg", users: ["reporting", { name: "owner", reserved: true }] }] },
  });
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.control.reset();
});

describe("login control: does a password work?", () => {
  const login = (username: string, password: string, cluster = "demo-pg") =>
    t.control.postgres.login(cluster, { username, password });

  test("the password a rotation returned logs in until the next rotation; the one before never again", async () => {
    const first = (await rotate("app_user")).body.data.password as string;
    expect(await login("app_user", first)).toBe(true);
    const second = (await rotate("app_user")).body.data.password as string;
    expect(await login("app_user", second)).toBe(true);
    expect(await login("app_user", first)).toBe(false);
  });

  test("another user's rotation leaves a password working", async () => {
    const a = (await rotate("app_user")).body.data.password as string;
    await rotate("app_user_b");
    expect(await login("app_user", a)).toBe(true);
  });

  test("an unknown user or a wrong password is a 401; an unknown cluster a 404", async () => {
    const raw = await t.api("POST", "/__emulator/postgres/demo-pg/login", {
      username: "ghost",
      password: "x",
    });
    expect(raw.status).toBe(401);
    expect(raw.body).toMatchObject({ ok: false, error: expect.stringContaining('user "ghost"') });
    expect(await login("app_user", "not-the-password")).toBe(false);
    expect(
      (await t.api("POST", "/__emulator/postgres/nope/login", { username: "u", password: "x" })).status,
    ).toBe(404);
  });

  test("the state dump never shows a password", async () => {
    const password = (await rotate("app_user")).body.data.password as string;
    expect(JSON.stringify(await t.control.state())).not.toContain(password);
  });
});

describe("rotate_password", () => {
  test("returns the user and a new strong password on every call", async () => {
    const first = await rotate("app_user");
    const second = await rotate("app_user", { kill_sessions: true });
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(first.body.data.username).toBe("app_user");
    expect(first.body.data.password).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(second.body.data.password).not.toBe(first.body.data.password);
    const cluster = (await t.control.state()).postgres.find((c) => c.name === "demo-pg");
    expect(cluster?.users.find((u) => u.name === "app_user")).toMatchObject({
      rotations: 2,
      sessions_killed: 1,
    });
  });

  test("users from a seed are known", async () => {
    expect((await rotate("reporting", undefined, "other-pg")).status).toBe(200);
    const reserved = await rotate("owner", undefined, "other-pg");
    expect(reserved.status).toBe(400);
    expect(reserved.body.error).toContain("reserved");
  });

  test("401 without a token or with a wrong one", async () => {
    expect((await rotate("app_user", undefined, "demo-pg", null)).status).toBe(401);
    const wrong = await rotate("app_user", undefined, "demo-pg", "wrong");
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toMatch(/unauthorized/);
  });

  test("400 for the reserved user postgres", async () => {
    const res = await rotate("postgres");
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('user "postgres" is reserved: its password is managed by the platform');
  });

  test.each(["pg_monitor", "repmgr", "flypgadmin", "rdsadmin"])(
    "400 for the system user %s",
    async (user) => {
      const res = await rotate(user);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(`user "${user}" is a system user and cannot be rotated`);
    },
  );

  test.each(["Bad-Name", "1abc", "a%20b", "x".repeat(64)])(
    "400 for the malformed username %s",
    async (user) => {
      const res = await rotate(user);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(/is malformed/);
    },
  );

  test("404 for an unknown cluster names the cluster", async () => {
    const res = await rotate("app_user", undefined, "nope-pg");
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('postgres cluster "nope-pg" not found');
  });

  test("404 for an unknown user names the user and the cluster", async () => {
    const res = await rotate("ghost");
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('user "ghost" not found in cluster "demo-pg"');
  });

  test("410 when the cluster is being deleted, saying so", async () => {
    await t.control.postgres.setState("demo-pg", "deleting");
    const res = await rotate("app_user");
    expect(res.status).toBe(410);
    expect(res.body.error).toBe('postgres cluster "demo-pg" is being deleted');
  });

  test("410 when the cluster has been deleted, saying so", async () => {
    await t.control.postgres.setState("demo-pg", "deleted");
    const res = await rotate("app_user");
    expect(res.status).toBe(410);
    expect(res.body.error).toBe('postgres cluster "demo-pg" has been deleted');
  });

  test.each([["yes"], [1], ["true"], [{}]])(
    "422 when kill_sessions is %j, not true, false or null",
    async (value) => {
      const res = await rotate("app_user", { kill_sessions: value });
      expect(res.status).toBe(422);
      expect(res.body.error).toContain("kill_sessions");
    },
  );

  test("kill_sessions null is not given, as every optional member: 200 with a new password", async () => {
    const res = await rotate("app_user", { kill_sessions: null });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ username: "app_user", password: expect.any(String) });
  });

  test("503 with Retry-After while the admin component is unavailable, 200 once it is back", async () => {
    await t.control.postgres.setAdmin("demo-pg", { available: false, retryAfterSeconds: 7 });
    const res = await rotate("app_user");
    expect(res.status).toBe(503);
    expect(res.headers["retry-after"]).toBe("7");
    expect(res.body.error).toContain("unavailable");
    await t.control.postgres.setAdmin("demo-pg", { available: true });
    expect((await rotate("app_user")).status).toBe(200);
  });

  test("the control routes 404 on an unknown cluster", async () => {
    const res = await t.api("POST", "/__emulator/postgres/nope/state", { state: "deleted" });
    expect(res.status).toBe(404);
  });
});
