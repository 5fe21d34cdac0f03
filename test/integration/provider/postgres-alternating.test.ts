import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import * as runtime from "../../../provider/kinds/runtime-entry";
import { type ProviderHarness, startHarness, withProvider } from "./helpers";

// Two users, two valid credentials: each rotation rotates the user that is not current, and the
// credential an app holds keeps logging in (the emulator's login control answers as Postgres would).

let h: ProviderHarness;
beforeAll(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.control.faults.clear();
});
afterAll(async () => {
  await h?.close();
});

const provider = runtime.postgresPasswordRotation;
const CLUSTER = "demo-pg";
const pair = { clusterId: CLUSTER, username: "app_user", alternateUsername: "app_user_b" };

type Outs = Record<string, unknown>;
const logsIn = (outs: Outs, user = "username", password = "password") =>
  h.control.postgres.login(CLUSTER, { username: String(outs[user]), password: String(outs[password]) });
const rotateRoute = (user: string) => `/v1/postgres/${CLUSTER}/users/${user}/rotate_password`;
async function rotations(): Promise<string[]> {
  return (await h.requests()).filter((r) => r.path.endsWith("/rotate_password")).map((r) => r.path);
}

/** Creates, then runs `n` rotations through update (a new `triggers` value each), returning every outs. */
async function rotateTimes(n: number, inputs: Record<string, unknown> = pair): Promise<Outs[]> {
  const created = await provider.create(withProvider({ ...inputs, triggers: { n: "0" } }));
  const history = [created.outs];
  for (let i = 1; i <= n; i++) {
    const previous = history[history.length - 1] as Outs;
    const { outs } = await provider.update(
      created.id,
      previous,
      withProvider({ ...inputs, triggers: { n: String(i) } }),
    );
    history.push(outs);
  }
  return history;
}

describe("PostgresPasswordRotation with alternateUsername", () => {
  it("the first rotation rotates username and has no previous credential yet", async () => {
    const { outs } = await provider.create(withProvider({ ...pair, killSessions: true }));
    expect(outs).toMatchObject({
      username: "app_user",
      programUsername: "app_user",
      alternateUsername: "app_user_b",
      previousUsername: null,
      previousPassword: null,
    });
    expect(await logsIn(outs)).toBe(true);
  });

  it("each rotation rotates the other user; the credential before it still logs in", async () => {
    await h.control.requests.clear();
    const history = await rotateTimes(4);
    expect(history.map((o) => o.username)).toEqual([
      "app_user",
      "app_user_b",
      "app_user",
      "app_user_b",
      "app_user",
    ]);
    for (const [i, outs] of history.entries()) {
      expect(await logsIn(outs), `rotation ${i}: current`).toBe(
        i === history.length - 1 || i === history.length - 2,
      );
      if (i === 0) continue;
      const before = history[i - 1] as Outs;
      expect(outs.previousUsername).toBe(before.username);
      expect(outs.previousPassword).toBe(before.password);
    }
    const last = history[history.length - 1] as Outs;
    expect(await logsIn(last, "previousUsername", "previousPassword")).toBe(true);
    expect(await rotations()).toEqual([
      rotateRoute("app_user"),
      rotateRoute("app_user_b"),
      rotateRoute("app_user"),
      rotateRoute("app_user_b"),
      rotateRoute("app_user"),
    ]);
  });

  it("killSessions ends the sessions of the user being rotated only", async () => {
    const inputs = { ...pair, killSessions: true };
    const { outs } = await provider.create(withProvider(inputs));
    const killed = async (user: string) =>
      (await h.state()).postgres.find((c) => c.name === CLUSTER)?.users.find((u) => u.name === user)
        ?.sessions_killed ?? 0;
    const before = { current: await killed("app_user"), other: await killed("app_user_b") };
    await provider.update("id", outs, withProvider({ ...inputs, triggers: { n: "1" } }));
    expect(await killed("app_user")).toBe(before.current);
    expect(await killed("app_user_b")).toBe(before.other + 1);
  });

  it("adding alternateUsername to a single-user rotation is only recorded; the next rotation rotates the alternate", async () => {
    const single = await provider.create(withProvider({ clusterId: CLUSTER, username: "app_user" }));
    await h.control.requests.clear();
    const added = await provider.update(single.id, single.outs, withProvider(pair));
    expect(await rotations()).toEqual([]);
    expect(added.outs).toMatchObject({
      username: "app_user",
      password: single.outs.password,
      alternateUsername: "app_user_b",
      previousUsername: null,
    });
    const next = await provider.update(
      single.id,
      added.outs,
      withProvider({ ...pair, triggers: { n: "1" } }),
    );
    expect(next.outs).toMatchObject({ username: "app_user_b", previousUsername: "app_user" });
    expect(await logsIn(next.outs, "previousUsername", "previousPassword")).toBe(true);
  });

  it("removing alternateUsername while the alternate is current rotates username back, leaving the alternate valid", async () => {
    const [, onAlternate] = await rotateTimes(1);
    const current = onAlternate as Outs;
    expect(current.username).toBe("app_user_b");
    const back = await provider.update(
      "id",
      current,
      withProvider({ clusterId: CLUSTER, username: "app_user", triggers: { n: "1" } }),
    );
    expect(back.outs).toMatchObject({ username: "app_user", previousUsername: null, previousPassword: null });
    expect(back.outs.alternateUsername).toBeUndefined();
    expect(await logsIn(back.outs)).toBe(true);
    expect(await logsIn(current)).toBe(true);
  });

  it("removing alternateUsername while username is current is only recorded", async () => {
    const [first] = await rotateTimes(0);
    await h.control.requests.clear();
    const back = await provider.update(
      "id",
      first as Outs,
      withProvider({ clusterId: CLUSTER, username: "app_user", triggers: { n: "0" } }),
    );
    expect(await rotations()).toEqual([]);
    expect(back.outs).toMatchObject({ username: "app_user", password: (first as Outs).password });
  });

  it("a new username rotates it and makes it current; the credential apps hold stays valid", async () => {
    const [first] = await rotateTimes(0);
    const moved = await provider.update(
      "id",
      first as Outs,
      withProvider({ ...pair, username: "app_user_b", alternateUsername: "app_user", triggers: { n: "0" } }),
    );
    // Swapped: the program's username is the alternate before; app_user is current, so app_user_b rotates.
    expect(moved.outs).toMatchObject({ username: "app_user_b", previousUsername: "app_user" });
    expect(await logsIn(first as Outs)).toBe(true);
  });

  it("refresh hands back the program's username, not the current user", async () => {
    const [, second] = await rotateTimes(1);
    const read = await provider.read("id", second as Outs);
    expect(read.inputs).toMatchObject({ username: "app_user", alternateUsername: "app_user_b" });
    expect(read.props).toMatchObject({ username: "app_user_b" });
  });
});

describe("a rotation answered 500 after the password changed (kill_sessions failed on the server)", () => {
  const fault500 = (user: string, times: number) =>
    h.control.faults.add({
      kind: "status-after",
      status: 500,
      method: "POST",
      path: rotateRoute(user),
      times,
    });

  it("one user: the rotation is sent again and the recorded password logs in", async () => {
    await fault500("app_user", 1);
    await h.control.requests.clear();
    const { outs } = await provider.create(
      withProvider({ clusterId: CLUSTER, username: "app_user", killSessions: true }),
    );
    expect(
      (await h.requests()).filter((r) => r.path === rotateRoute("app_user")).map((r) => r.status),
    ).toEqual([500, 200]);
    expect(await logsIn(outs)).toBe(true);
  });

  it("one user, every answer a 500: the create fails saying the password may have changed, and records nothing", async () => {
    await fault500("app_user", 3);
    const err = await provider
      .create(withProvider({ clusterId: CLUSTER, username: "app_user", killSessions: true }))
      .catch((e: Error) => e);
    expect(String((err as Error).message)).toMatch(
      /500[\s\S]*may have changed[\s\S]*next `pulumi up` rotates again/,
    );
  });

  it("two users: the rotation of the other user is sent again, the current credential never stops working", async () => {
    const [first] = await rotateTimes(0);
    await fault500("app_user_b", 1);
    const { outs } = await provider.update(
      "id",
      first as Outs,
      withProvider({ ...pair, triggers: { n: "1" } }),
    );
    expect(outs).toMatchObject({ username: "app_user_b", previousUsername: "app_user" });
    expect(await logsIn(outs)).toBe(true);
    expect(await logsIn(outs, "previousUsername", "previousPassword")).toBe(true);
  });

  it("two users, every answer a 500: the update fails, naming the untouched current credential, which still logs in", async () => {
    const [first] = await rotateTimes(0);
    await fault500("app_user_b", 3);
    const err = await provider
      .update("id", first as Outs, withProvider({ ...pair, triggers: { n: "1" } }))
      .catch((e: Error) => e);
    expect(String((err as Error).message)).toMatch(
      /rotating the password of app_user_b[\s\S]*current credential \(user app_user\) was not touched/,
    );
    expect(await logsIn(first as Outs)).toBe(true);
  });
});
