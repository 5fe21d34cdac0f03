import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as runtime from "../../../provider/kinds/runtime-entry";
import { configureRuntime, hasUndefined, type ProviderHarness, startHarness, withProvider } from "./helpers";

let h: ProviderHarness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

const rotate = (inputs: Record<string, unknown>) =>
  runtime.postgresPasswordRotation.create(withProvider(inputs));

describe("PostgresPasswordRotation", () => {
  it("rotates and outputs username, password and rotatedAt", async () => {
    const { id, outs } = await rotate({ clusterId: "demo-pg", username: "app_user", triggers: { v: "1" } });
    expect(id).toMatch(/^demo-pg\/app_user\//);
    expect(outs).toMatchObject({
      clusterId: "demo-pg",
      username: "app_user",
      password: expect.any(String),
      rotatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      triggers: { v: "1" },
    });
    expect(String(outs.password).length).toBeGreaterThan(8);
    expect(hasUndefined(outs)).toBe(false);
  });

  it("a second rotation gives a new password", async () => {
    const a = await rotate({ clusterId: "demo-pg", username: "app_user" });
    const b = await rotate({ clusterId: "demo-pg", username: "app_user", killSessions: true });
    expect(b.outs.password).not.toBe(a.outs.password);
  });

  it("read keeps the state as it is (no read endpoint) and delete calls nothing", async () => {
    const { id, outs } = await rotate({ clusterId: "demo-pg", username: "app_user" });
    const before = (await h.requests()).length;
    const read = await runtime.postgresPasswordRotation.read(id, outs);
    expect(read).toEqual({ id, props: outs, inputs: { clusterId: "demo-pg", username: "app_user" } });
    await runtime.postgresPasswordRotation.delete(id, outs);
    expect((await h.requests()).length).toBe(before);
  });

  it("killSessions alone updates in place and keeps the password", async () => {
    const { id, outs } = await rotate({ clusterId: "demo-pg", username: "app_user" });
    const { outs: after } = await runtime.postgresPasswordRotation.update(id, outs, {
      clusterId: "demo-pg",
      username: "app_user",
      killSessions: true,
    });
    expect(after).toMatchObject({ password: outs.password, rotatedAt: outs.rotatedAt, killSessions: true });
  });
});

describe("PostgresPasswordRotation error rows (spec 7)", () => {
  const cases: [string, () => Promise<void>, Record<string, unknown>, RegExp[]][] = [
    [
      "400: a reserved user is refused with the platform's message and what to do",
      async () => {},
      { clusterId: "demo-pg", username: "postgres" },
      [/failed with 400/, /reserved/, /choose an application user/],
    ],
    [
      "400: a malformed user name is refused",
      async () => {},
      { clusterId: "demo-pg", username: "Bad-Name!" },
      [/failed with 400/],
    ],
    [
      "404: an unknown cluster says the cluster was not found",
      async () => {},
      { clusterId: "no-such-pg", username: "app_user" },
      [/failed with 404/, /Cluster no-such-pg was not found; fix clusterId/],
    ],
    [
      "404: an unknown user says the user does not exist",
      async () => {},
      { clusterId: "demo-pg", username: "ghost" },
      [/failed with 404/, /User "ghost" does not exist in cluster demo-pg/],
    ],
    [
      "410: a deleted cluster says so",
      async () => {
        await h.control.postgres.setState("demo-pg", "deleted");
      },
      { clusterId: "demo-pg", username: "app_user" },
      [/failed with 410/, /has been deleted/, /point clusterId at a live cluster/],
    ],
    [
      "410: a cluster being deleted says so",
      async () => {
        await h.control.postgres.setState("demo-pg", "deleting");
      },
      { clusterId: "demo-pg", username: "app_user" },
      [/failed with 410/, /being deleted/],
    ],
    [
      "422: a killSessions that is not a boolean (check stops it; the platform's answer is still explained)",
      async () => {},
      { clusterId: "demo-pg", username: "app_user", killSessions: "yes" },
      [/failed with 422/, /killSessions must be true or false/],
    ],
    [
      "503: the admin component is unavailable, with the retry interval",
      async () => {
        await h.control.postgres.setAdmin("demo-pg", { available: false, retryAfterSeconds: 1 });
      },
      { clusterId: "demo-pg", username: "app_user" },
      [/503/, /admin component is unavailable/, /retry after 1 s/],
    ],
  ];

  for (const [rule, arrange, inputs, patterns] of cases) {
    it(rule, async () => {
      await arrange();
      try {
        const err = await rotate(inputs).then(
          () => undefined,
          (e: Error) => e,
        );
        expect(err, "rotation should fail").toBeInstanceOf(Error);
        for (const p of patterns) expect(err?.message).toMatch(p);
        expect(err?.message).toMatch(/^rotating the password of /);
      } finally {
        await h.control.postgres.setState("demo-pg", "ready");
        await h.control.postgres.setAdmin("demo-pg", { available: true });
      }
    });
  }

  it("401: a rejected token says how to set a valid one, and the token is not in the message", async () => {
    await configureRuntime(h.emu.url, "wrong-token-value");
    try {
      const err = await rotate({ clusterId: "demo-pg", username: "app_user" }).catch((e: Error) => e);
      expect((err as Error).message).toMatch(/failed with 401/);
      expect((err as Error).message).toMatch(/pulumi config set --secret platform:apiToken/);
      expect((err as Error).message.split("pulumi config set").length - 1).toBe(1);
      expect((err as Error).message).not.toContain("wrong-token-value");
    } finally {
      await configureRuntime(h.emu.url, h.emu.token);
    }
  });
});
