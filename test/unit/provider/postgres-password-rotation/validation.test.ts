import { describe, expect, it } from "vitest";
import { validatePostgresPasswordRotationArgs } from "../../../../provider/kinds/declarations";
import { postgresUsernameProblem, UNKNOWN } from "../../../../provider/model/validation";

describe("validatePostgresPasswordRotationArgs", () => {
  const cases: [string, Record<string, unknown>, [property: string, reason: RegExp] | undefined][] = [
    ["accepts clusterId and username", { clusterId: "demo-pg", username: "app_user" }, undefined],
    [
      "accepts triggers of strings",
      { clusterId: "demo-pg", username: "app_user", triggers: { v: "1" } },
      undefined,
    ],
    ["requires username", { clusterId: "demo-pg" }, ["username", /^username is required/]],
    [
      "rejects a username with a slash",
      { clusterId: "demo-pg", username: "a/b" },
      ["username", /^username "a\/b" is malformed/],
    ],
    [
      "rejects a non-boolean killSessions",
      { clusterId: "demo-pg", username: "u", killSessions: "yes" },
      ["killSessions", /^killSessions must be true or false \(got "yes"\)$/],
    ],
    [
      "rejects a non-string trigger value",
      { clusterId: "demo-pg", username: "u", triggers: { v: 1 } },
      ["triggers.v", /^triggers values must be strings \(got 1\)$/],
    ],
    ["skips unknown triggers", { clusterId: "demo-pg", username: "u", triggers: UNKNOWN }, undefined],
    ["accepts a rotationDays of 30", { clusterId: "demo-pg", username: "u", rotationDays: 30 }, undefined],
  ];
  for (const [rule, news, failure] of cases) {
    it(rule, () => {
      const failures = validatePostgresPasswordRotationArgs(news);
      if (!failure) expect(failures).toEqual([]);
      else expect(failures).toEqual([{ property: failure[0], reason: expect.stringMatching(failure[1]) }]);
    });
  }
  it.each([0, 3651, 1.5, "30"])("rejects a rotationDays of %j, naming the range", (rotationDays) => {
    expect(
      validatePostgresPasswordRotationArgs({ clusterId: "demo-pg", username: "u", rotationDays }),
    ).toEqual([
      {
        property: "rotationDays",
        reason: expect.stringMatching(/^rotationDays must be a whole number from 1 to 3650 days/),
      },
    ]);
  });
});

describe("Postgres user names the platform refuses (spec 7, 400) are refused at preview in its words", () => {
  const cases: [string, string, string | undefined][] = [
    ["accepts an application user", "app_user", undefined],
    ["accepts a name with digits and $", "etl_2$", undefined],
    ["accepts a name of 63 characters", "a".repeat(63), undefined],
    [
      "refuses postgres as reserved",
      "postgres",
      'user "postgres" is reserved: its password is managed by the platform',
    ],
    [
      "refuses a pg_ role as a system user",
      "pg_monitor",
      'user "pg_monitor" is a system user and cannot be rotated',
    ],
    ["refuses repmgr as a system user", "repmgr", 'user "repmgr" is a system user and cannot be rotated'],
    [
      "refuses flypgadmin as a system user",
      "flypgadmin",
      'user "flypgadmin" is a system user and cannot be rotated',
    ],
    [
      "refuses uppercase as malformed",
      "App_user",
      'username "App_user" is malformed: use 1 to 63 lowercase letters, digits, "_" or "$", not starting with a digit',
    ],
    [
      "refuses a leading digit as malformed",
      "1user",
      expect.stringMatching(/is malformed/) as unknown as string,
    ],
    [
      "refuses 64 characters as malformed",
      "a".repeat(64),
      expect.stringMatching(/is malformed/) as unknown as string,
    ],
    ["refuses a hyphen as malformed", "app-user", expect.stringMatching(/is malformed/) as unknown as string],
  ];
  for (const [rule, username, problem] of cases) {
    it(rule, () => {
      expect(postgresUsernameProblem(username)).toEqual(problem);
      const failures = validatePostgresPasswordRotationArgs({ clusterId: "demo-pg", username });
      expect(failures).toEqual(problem === undefined ? [] : [{ property: "username", reason: problem }]);
    });
  }
  it("leaves a username unknown at preview to later", () => {
    expect(validatePostgresPasswordRotationArgs({ clusterId: "demo-pg", username: UNKNOWN })).toEqual([]);
  });
});
