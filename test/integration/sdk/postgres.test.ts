import { beforeEach, describe, expect, it } from "vitest";
import { AmbiguousRequestError, ApiError, isGone, isNotFound, PlatformClient } from "../../../sdk/index";
import { SDK_TIMING, type TestEmulator, useTestEmulator } from "../../support/emulator";

let h: TestEmulator;
let client: PlatformClient;
let noRetry: PlatformClient;

useTestEmulator({
  emulator: { timing: SDK_TIMING },
  resetEachTest: true,
  started: (started) => {
    h = started;
    client = h.client();
    noRetry = h.client({ maxRetries: 0 });
  },
});
beforeEach(async () => {
  await h.control.postgres.setState("demo-pg", "ready");
  await h.control.postgres.setAdmin("demo-pg", { available: true });
});

describe("postgres rotate password against the emulator", () => {
  it("returns new credentials, with and without kill_sessions", async () => {
    const a = await client.postgres.rotatePassword("demo-pg", "app_user");
    const b = await client.postgres.rotatePassword("demo-pg", "app_user", { killSessions: true });
    expect(a.username).toBe("app_user");
    expect(a.password).not.toBe(b.password);
  });

  it.each([
    ["reserved user", "demo-pg", "postgres", {}, 400, "reserved_user"],
    ["system user", "demo-pg", "pg_monitor", {}, 400, "system_user"],
    ["malformed user", "demo-pg", "Bad-Name!", {}, 400, "malformed_user"],
    ["cluster not found", "no-such-pg", "app_user", {}, 404, "cluster_not_found"],
    ["user not found", "demo-pg", "ghost", {}, 404, "user_not_found"],
    [
      "kill_sessions not a boolean",
      "demo-pg",
      "app_user",
      { killSessions: "yes" },
      422,
      "invalid_kill_sessions",
    ],
  ])("%s → %i %s", async (_row, cluster, user, opts, status, reason) => {
    const err = await client.postgres.rotatePassword(cluster, user, opts as never).catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status, reason });
  });

  it("unauthorized → 401 with a hint on setting the token", async () => {
    const bad = new PlatformClient({ baseUrl: h.emu.url, token: "wrong-token" });
    const err = await bad.postgres.rotatePassword("demo-pg", "app_user").catch((e) => e);
    await bad.close();
    expect(err).toMatchObject({ status: 401, reason: "unauthorized" });
    expect(err.hint).toMatch(/refused the API token/);
    expect(err.hint).not.toMatch(/pulumi|platform:apiToken/);
    expect(err.message).not.toContain("wrong-token");
  });

  it.each([
    ["deleted", "cluster_deleted"],
    ["deleting", "cluster_deleting"],
  ] as const)("cluster %s → 410 %s", async (state, reason) => {
    await h.control.postgres.setState("demo-pg", state);
    const err = await client.postgres.rotatePassword("demo-pg", "app_user").catch((e) => e);
    expect(isGone(err)).toBe(true);
    expect(err.reason).toBe(reason);
  });

  it("admin unavailable → 503 admin_unavailable with Retry-After when retries are off", async () => {
    await h.control.postgres.setAdmin("demo-pg", { available: false, retryAfterSeconds: 2 });
    const err = await noRetry.postgres.rotatePassword("demo-pg", "app_user").catch((e) => e);
    expect(err).toMatchObject({ status: 503, reason: "admin_unavailable", retryAfterSeconds: 2 });
  });

  it("a 503 means nothing happened: the rotation is retried after Retry-After and succeeds", async () => {
    await h.control.postgres.setAdmin("demo-pg", { available: false, retryAfterSeconds: 1 });
    setTimeout(() => void h.control.postgres.setAdmin("demo-pg", { available: true }), 300);
    await expect(client.postgres.rotatePassword("demo-pg", "app_user")).resolves.toMatchObject({
      username: "app_user",
    });
    expect((await h.requests()).map((r) => r.status)).toEqual([503, 200]);
  });

  it("a connection dropped after the rotation ran → AmbiguousRequestError saying to rotate again", async () => {
    await h.control.faults.add({
      method: "POST",
      path: "/v1/postgres/**",
      kind: "drop-after",
      times: 1,
    });
    const err = await client.postgres.rotatePassword("demo-pg", "app_user").catch((e) => e);
    expect(err).toBeInstanceOf(AmbiguousRequestError);
    expect(err.message).toMatch(/may have changed.*Rotate it again.*killSessions/);
    expect((await h.requests()).filter((r) => r.method === "POST")).toHaveLength(1);
    expect(isNotFound(err)).toBe(false);
  });
});
