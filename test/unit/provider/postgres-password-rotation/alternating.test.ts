import { describe, expect, it } from "vitest";
import { validatePostgresPasswordRotationArgs } from "../../../../provider/kinds/declarations";
import * as runtime from "../../../../provider/kinds/runtime-entry";
import { UNKNOWN } from "../../../../provider/model/validation";

// Alternating users (`alternateUsername`): what preview refuses, and what each change plans.

const provider = "exports.handler = __f0;";
const pair = { clusterId: "demo-pg", username: "app_user", alternateUsername: "app_user_b" };

describe("alternateUsername at preview", () => {
  it("rejects the same user as username, naming alternateUsername", () => {
    expect(validatePostgresPasswordRotationArgs({ ...pair, alternateUsername: "app_user" })).toEqual([
      {
        property: "alternateUsername",
        reason: expect.stringMatching(
          /^alternateUsername must be a different user than username \("app_user"\)/,
        ),
      },
    ]);
  });

  it.each([
    ["postgres", /^alternateUsername: user "postgres" is reserved/],
    ["repmgr", /^alternateUsername: user "repmgr" is a system user/],
    ["pg_monitor", /^alternateUsername: user "pg_monitor" is a system user/],
    ["App-User", /^alternateUsername: username "App-User" is malformed/],
  ])("rejects %s with the same rule as username", (alternateUsername, reason) => {
    expect(validatePostgresPasswordRotationArgs({ ...pair, alternateUsername })).toEqual([
      { property: "alternateUsername", reason: expect.stringMatching(reason) },
    ]);
  });

  it("accepts a second ordinary user, and an unknown one at preview", () => {
    expect(validatePostgresPasswordRotationArgs(pair)).toEqual([]);
    expect(validatePostgresPasswordRotationArgs({ ...pair, alternateUsername: UNKNOWN })).toEqual([]);
  });
});

describe("what a change plans with alternateUsername", () => {
  // Recorded after two rotations: the alternate is current, the program's username is previous.
  const outs = {
    __provider: provider,
    ...pair,
    programUsername: "app_user",
    username: "app_user_b",
    password: "b-secret",
    previousUsername: "app_user",
    previousPassword: "a-secret",
    triggers: { n: "2" },
  };
  const ins = { __provider: provider, ...pair, triggers: { n: "2" } };
  const plan = async (news: Record<string, unknown>, olds: Record<string, unknown> = outs) => {
    const result = await runtime.postgresPasswordRotation.diff("id", olds, news);
    return { changes: result.changes, replaces: result.replaces };
  };

  it("nothing changed while the alternate is current: no change (the current user is not a program change)", async () => {
    expect(await plan(ins)).toEqual({ changes: false, replaces: [] });
  });
  it("new triggers rotate in place (an update), never a replace", async () => {
    expect(await plan({ ...ins, triggers: { n: "3" } })).toEqual({ changes: true, replaces: [] });
  });
  it("a due schedule rotates in place", async () => {
    const olds = { ...outs, rotationDays: 30, scheduledRotations: 1 };
    expect(await plan({ ...ins, rotationDays: 30, scheduledRotations: 2 }, olds)).toEqual({
      changes: true,
      replaces: [],
    });
  });
  it("another username rotates in place", async () => {
    expect(await plan({ ...ins, username: "app_user_c" })).toEqual({ changes: true, replaces: [] });
  });
  it("another cluster replaces", async () => {
    expect(await plan({ ...ins, clusterId: "pg2" })).toEqual({ changes: true, replaces: ["clusterId"] });
  });
  it("removing alternateUsername is an update, not a replace", async () => {
    const { alternateUsername: _, ...single } = ins;
    expect(await plan(single)).toEqual({ changes: true, replaces: [] });
  });
  it("adding alternateUsername to a single-user rotation is an update, not a replace", async () => {
    const single = {
      __provider: provider,
      clusterId: "demo-pg",
      username: "app_user",
      password: "a-secret",
      triggers: { n: "2" },
    };
    expect(await plan(ins, single)).toEqual({ changes: true, replaces: [] });
  });
  it("a single-user rotation recorded by 0.3.0 (no programUsername) plans nothing for its own program", async () => {
    const recorded = { __provider: provider, clusterId: "demo-pg", username: "app_user", password: "x" };
    expect(
      await plan({ __provider: provider, clusterId: "demo-pg", username: "app_user" }, recorded),
    ).toEqual({
      changes: false,
      replaces: [],
    });
  });
});
