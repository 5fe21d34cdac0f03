import { beforeAll, describe, expect, it } from "vitest";
import {
  validateAcmeCertificateArgs,
  validateCustomCertificateArgs,
  validatePostgresPasswordRotationArgs,
  validateVolumeArgs,
  validateVolumeSnapshotArgs,
} from "../../../provider/declarations";
import {
  certificateNameCovers,
  hostnameProblem,
  nearestName,
  postgresUsernameProblem,
  UNKNOWN,
} from "../../../provider/validation";
import { days, makeCert } from "../../support/certs";

const base = { app: "demo-app", name: "data" };

describe("validateVolumeArgs", () => {
  const cases: {
    rule: string;
    news: Record<string, unknown>;
    olds?: Record<string, unknown>;
    property?: string;
    reason?: RegExp;
  }[] = [
    { rule: "accepts the minimal inputs (app and name)", news: base },
    { rule: "requires app", news: { name: "data" }, property: "app", reason: /app is required/ },
    { rule: "requires name", news: { app: "demo-app" }, property: "name", reason: /name is required/ },
    {
      rule: "rejects an empty name",
      news: { ...base, name: "" },
      property: "name",
      reason: /must not be empty/,
    },
    {
      rule: "rejects snapshotRetention above 60",
      news: { ...base, snapshotRetention: 61 },
      property: "snapshotRetention",
      reason: /whole number from 1 to 60 days \(got 61\)/,
    },
    {
      rule: "rejects snapshotRetention below 1",
      news: { ...base, snapshotRetention: 0 },
      property: "snapshotRetention",
      reason: /from 1 to 60/,
    },
    {
      rule: "rejects a fractional snapshotRetention",
      news: { ...base, snapshotRetention: 2.5 },
      property: "snapshotRetention",
    },
    { rule: "accepts snapshotRetention 1 and 60", news: { ...base, snapshotRetention: 60 } },
    {
      rule: "rejects a zero sizeGb",
      news: { ...base, sizeGb: 0 },
      property: "sizeGb",
      reason: /GB \(got 0\)/,
    },
    { rule: "rejects a string sizeGb", news: { ...base, sizeGb: "10" }, property: "sizeGb" },
    {
      rule: "rejects a non-boolean encrypted",
      news: { ...base, encrypted: "yes" },
      property: "encrypted",
      reason: /true or false/,
    },
    {
      rule: "rejects an unknown compute.cpuKind",
      news: { ...base, compute: { cpuKind: "turbo" } },
      property: "compute.cpuKind",
      reason: /"shared" or "performance"/,
    },
    {
      rule: "rejects a non-string entry of compute.kernelArgs",
      news: { ...base, compute: { kernelArgs: ["a", 3] } },
      property: "compute.kernelArgs[1]",
    },
    {
      rule: "requires region when restoring from snapshotId",
      news: { ...base, snapshotId: "vs_1" },
      property: "region",
      reason: /region is required when restoring/,
    },
    { rule: "accepts a restore with region", news: { ...base, snapshotId: "vs_1", region: "ord" } },
    {
      rule: "rejects snapshotId together with sourceVolumeId",
      news: { ...base, snapshotId: "vs_1", region: "ord", sourceVolumeId: "vol_1" },
      property: "sourceVolumeId",
      reason: /exclude each other/,
    },
    {
      rule: "rejects adoptVolumeId together with snapshotId",
      news: { ...base, adoptVolumeId: "vol_1", snapshotId: "vs_1", region: "ord" },
      property: "snapshotId",
      reason: /cannot be combined with adoptVolumeId/,
    },
    {
      rule: "rejects restoreTimeoutSeconds of 0",
      news: { ...base, restoreTimeoutSeconds: 0 },
      property: "restoreTimeoutSeconds",
    },
    {
      rule: "rejects a shrink from 10 to 5 GB",
      olds: { ...base, sizeGb: 10 },
      news: { ...base, sizeGb: 5 },
      property: "sizeGb",
      reason: /^volumes can only grow: 10 GB → 5 GB$/,
    },
    { rule: "accepts growth from 10 to 20 GB", olds: { ...base, sizeGb: 10 }, news: { ...base, sizeGb: 20 } },
    { rule: "accepts removing sizeGb (not a change)", olds: { ...base, sizeGb: 10 }, news: base },
    {
      rule: "accepts a smaller sizeGb when the volume is replaced anyway (new name)",
      olds: { ...base, sizeGb: 10 },
      news: { ...base, name: "other", sizeGb: 5 },
    },
    {
      rule: "rejects a shrink when compute only lists the same keys in another order (not a replace)",
      olds: { ...base, sizeGb: 10, compute: { cpus: 2, memoryMb: 512 } },
      news: { ...base, sizeGb: 5, compute: { memoryMb: 512, cpus: 2 } },
      property: "sizeGb",
      reason: /^volumes can only grow: 10 GB → 5 GB$/,
    },
    {
      rule: "skips values unknown at preview (sizeGb, compute, snapshotId)",
      olds: { ...base, sizeGb: 10 },
      news: { ...base, sizeGb: UNKNOWN, compute: UNKNOWN, snapshotId: UNKNOWN, region: "ord" },
    },
    {
      rule: "counts an unknown snapshotId as given, so region is still required",
      news: { ...base, snapshotId: UNKNOWN },
      property: "region",
    },
  ];

  for (const c of cases) {
    it(c.rule, () => {
      const failures = validateVolumeArgs(c.news, c.olds);
      if (!c.property) {
        expect(failures).toEqual([]);
        return;
      }
      const failure = failures.find((f) => f.property === c.property);
      expect(failure, JSON.stringify(failures)).toBeDefined();
      if (c.reason) expect(failure?.reason).toMatch(c.reason);
    });
  }
});

describe("hostname rules", () => {
  const cases: [string, string, RegExp | undefined][] = [
    ["accepts a plain hostname", "app.example.com", undefined],
    ["accepts a wildcard hostname", "*.example.com", undefined],
    ["rejects uppercase", "App.example.com", /lowercase/],
    ["rejects a single label", "localhost", /two labels/],
    ["rejects a wildcard over a single label", "*.com", /at least two labels/],
    ["rejects a wildcard inside a label", "a*.example.com", /whole first label/],
    ["rejects a wildcard that is not first", "a.*.example.com", /whole first label/],
    ["rejects a label starting with a hyphen", "-a.example.com", /hyphen/],
    ["rejects a trailing dot", "app.example.com.", /dot/],
  ];
  for (const [rule, hostname, problem] of cases) {
    it(rule, () => {
      const found = hostnameProblem(hostname);
      if (problem) expect(found).toMatch(problem);
      else expect(found).toBeUndefined();
    });
  }

  const coverage: [string, string, string, boolean][] = [
    ["an exact name covers itself", "app.example.com", "app.example.com", true],
    ["a wildcard name covers one extra label", "*.example.com", "app.example.com", true],
    ["a wildcard name does not cover two extra labels", "*.example.com", "a.b.example.com", false],
    ["a wildcard name does not cover the bare domain", "*.example.com", "example.com", false],
    ["a wildcard hostname is covered by the same wildcard", "*.example.com", "*.example.com", true],
    ["a wildcard hostname is not covered by a plain name", "app.example.com", "*.example.com", false],
    ["matching ignores case", "APP.example.com", "app.example.com", true],
  ];
  for (const [rule, name, hostname, covered] of coverage) {
    it(rule, () => expect(certificateNameCovers(name, hostname)).toBe(covered));
  }
});

describe("validateAcmeCertificateArgs", () => {
  const cases: [string, Record<string, unknown>, [property: string, reason: RegExp] | undefined][] = [
    ["accepts app and hostname", { app: "demo-app", hostname: "www.example.com" }, undefined],
    ["requires hostname", { app: "demo-app" }, ["hostname", /^hostname is required/]],
    [
      "rejects an uppercase hostname",
      { app: "demo-app", hostname: "WWW.example.com" },
      ["hostname", /^hostname must be lowercase \(got "WWW\.example\.com"\)$/],
    ],
    [
      "rejects a waitTimeoutSeconds of 0",
      { app: "demo-app", hostname: "a.example.com", waitTimeoutSeconds: 0 },
      ["waitTimeoutSeconds", /^waitTimeoutSeconds must be a whole number from 1 to 86400 seconds \(got 0\)$/],
    ],
    [
      "rejects a non-boolean waitForActive",
      { app: "demo-app", hostname: "a.example.com", waitForActive: 1 },
      ["waitForActive", /^waitForActive must be true or false \(got 1\)$/],
    ],
    ["skips an unknown hostname", { app: "demo-app", hostname: UNKNOWN }, undefined],
  ];
  for (const [rule, news, failure] of cases) {
    it(rule, () => {
      const failures = validateAcmeCertificateArgs(news);
      if (!failure) expect(failures).toEqual([]);
      else expect(failures).toEqual([{ property: failure[0], reason: expect.stringMatching(failure[1]) }]);
    });
  }
});

describe("validateCustomCertificateArgs", () => {
  let good: { cert: string; key: string };
  let wildcard: { cert: string; key: string };
  let expired: { cert: string; key: string };
  let cnOnly: { cert: string; key: string };
  let other: { cert: string; key: string };
  beforeAll(async () => {
    [good, wildcard, expired, cnOnly, other] = await Promise.all([
      makeCert("app.example.com", ["app.example.com", "www.example.com"]),
      makeCert("*.example.com"),
      makeCert("old.example.com", ["old.example.com"], {
        from: Date.now() - days(100),
        to: Date.now() - days(1),
      }),
      makeCert("cn.example.com", []),
      makeCert("other.example.com"),
    ]);
  });
  const args = (c: { cert: string; key: string }, hostname: string, extra: Record<string, unknown> = {}) => ({
    app: "demo-app",
    hostname,
    fullchain: c.cert,
    privateKey: c.key,
    ...extra,
  });

  it("accepts a matching certificate and key for a SAN hostname", () => {
    expect(validateCustomCertificateArgs(args(good, "www.example.com"))).toEqual([]);
  });
  it("accepts a chain with the leaf first followed by another certificate", () => {
    expect(
      validateCustomCertificateArgs(args(good, "app.example.com", { fullchain: good.cert + other.cert })),
    ).toEqual([]);
  });
  it("accepts a hostname covered by a wildcard SAN", () => {
    expect(validateCustomCertificateArgs(args(wildcard, "api.example.com"))).toEqual([]);
  });
  it("accepts a wildcard hostname covered by the same wildcard", () => {
    expect(validateCustomCertificateArgs(args(wildcard, "*.example.com"))).toEqual([]);
  });
  it("accepts a hostname found only in the CN", () => {
    expect(validateCustomCertificateArgs(args(cnOnly, "cn.example.com"))).toEqual([]);
  });
  it("rejects an expired certificate, naming fullchain only in the reason (the engine prints a named property's value: the PEM)", () => {
    const failures = validateCustomCertificateArgs(args(expired, "old.example.com"));
    expect(failures).toEqual([
      { property: "", reason: expect.stringMatching(/^fullchain: the certificate expired on/) },
    ]);
  });
  it("rejects a key that does not match the certificate, naming privateKey only in the reason", () => {
    const failures = validateCustomCertificateArgs(args(good, "app.example.com", { privateKey: other.key }));
    expect(failures).toEqual([{ property: "", reason: expect.stringMatching(/^privateKey does not match/) }]);
  });
  it("rejects a hostname not in SAN or CN", () => {
    const failures = validateCustomCertificateArgs(args(good, "shop.example.com"));
    expect(failures).toEqual([
      { property: "hostname", reason: expect.stringMatching(/not covered.*SAN: app\.example\.com/) },
    ]);
  });
  it("rejects a hostname two labels under a wildcard", () => {
    expect(validateCustomCertificateArgs(args(wildcard, "a.b.example.com")).map((f) => f.property)).toEqual([
      "hostname",
    ]);
  });
  it("rejects text that holds no PEM certificate, naming fullchain only in the reason", () => {
    const failures = validateCustomCertificateArgs(args(good, "app.example.com", { fullchain: "hello" }));
    expect(failures[0]).toEqual({
      property: "",
      reason: expect.stringMatching(/^fullchain contains no PEM certificate/),
    });
  });
  it("rejects an unreadable private key without echoing it or naming it as the property", () => {
    const failures = validateCustomCertificateArgs(
      args(good, "app.example.com", { privateKey: "not-a-key-SECRET" }),
    );
    expect(failures).toEqual([{ property: "", reason: expect.not.stringContaining("SECRET") }]);
    expect(failures[0]?.reason).toMatch(/^privateKey is not a PEM private key/);
  });
  it("rejects a truncated PEM key without echoing any line of it", () => {
    const truncated = good.key.split("\n").slice(0, 4).join("\n");
    const failures = validateCustomCertificateArgs(args(good, "app.example.com", { privateKey: truncated }));
    expect(failures).toEqual([{ property: "", reason: expect.stringMatching(/^privateKey /) }]);
    for (const line of truncated.split("\n")) expect(failures[0]?.reason).not.toContain(line);
  });

  const secretShapes: [string, unknown, RegExp][] = [
    ["a number", 1234567, /privateKey must be a string.*\(got a number\)/],
    ["an object", { pem: "x" }, /privateKey must be a string.*\(got an object\)/],
    ["an empty string", "", /privateKey must not be empty/],
    ["nothing", undefined, /privateKey is required/],
  ];
  for (const [shape, value, reason] of secretShapes) {
    it(`rejects a privateKey that is ${shape} without naming it as the property or echoing it`, () => {
      const failures = validateCustomCertificateArgs(args(good, "app.example.com", { privateKey: value }));
      expect(failures).toEqual([{ property: "", reason: expect.stringMatching(reason) }]);
      expect(failures[0]?.reason).not.toContain("1234567");
    });
  }
  it("never names privateKey as the property of any failure, even with every input wrong", () => {
    const failures = validateCustomCertificateArgs({
      app: 1,
      hostname: "Bad..Host",
      fullchain: "x",
      privateKey: 5,
      privatekey: "-----BEGIN PRIVATE KEY-----",
      password: "hunter2",
    });
    expect(failures.length).toBeGreaterThan(3);
    for (const f of failures) expect(f.property).not.toMatch(/key|password/i);
  });
  it("rejects a mistyped privatekey without naming it as the property, suggesting privateKey", () => {
    const { privateKey, ...rest } = args(good, "app.example.com");
    const failures = validateCustomCertificateArgs({ ...rest, privatekey: privateKey });
    expect(failures).toContainEqual({
      property: "",
      reason: "unknown property privatekey: did you mean privateKey?",
    });
    expect(failures.map((f) => f.property)).not.toContain("privatekey");
  });
  it("skips PEM checks while fullchain and privateKey are unknown", () => {
    expect(
      validateCustomCertificateArgs(
        args(good, "app.example.com", { fullchain: UNKNOWN, privateKey: UNKNOWN }),
      ),
    ).toEqual([]);
  });
});

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

describe("CustomCertificate expiryWarningDays", () => {
  it.each([-1, 366, 2.5])("rejects %j, naming the range and the default", async (expiryWarningDays) => {
    const { makeCert } = await import("../../support/certs");
    const good = await makeCert("w.example.com");
    const failures = validateCustomCertificateArgs({
      app: "demo-app",
      hostname: "w.example.com",
      fullchain: good.cert,
      privateKey: good.key,
      expiryWarningDays,
    });
    expect(failures).toEqual([
      {
        property: "expiryWarningDays",
        reason: expect.stringMatching(
          /^expiryWarningDays must be a whole number from 0 to 365 days \(default 30\)/,
        ),
      },
    ]);
  });
});

describe("validateVolumeSnapshotArgs", () => {
  const cases: [string, Record<string, unknown>, [property: string, reason: RegExp] | undefined][] = [
    ["accepts app and volumeId", { app: "demo-app", volumeId: "vol_1" }, undefined],
    [
      "accepts an unknown volumeId (volume created in the same up)",
      { app: "demo-app", volumeId: UNKNOWN },
      undefined,
    ],
    ["requires volumeId", { app: "demo-app" }, ["volumeId", /^volumeId is required/]],
    [
      "rejects waitTimeoutSeconds above one day",
      { app: "demo-app", volumeId: "v", waitTimeoutSeconds: 86_401 },
      [
        "waitTimeoutSeconds",
        /^waitTimeoutSeconds must be a whole number from 1 to 86400 seconds \(got 86401\)$/,
      ],
    ],
  ];
  for (const [rule, news, failure] of cases) {
    it(rule, () => {
      const failures = validateVolumeSnapshotArgs(news);
      if (!failure) expect(failures).toEqual([]);
      else expect(failures).toEqual([{ property: failure[0], reason: expect.stringMatching(failure[1]) }]);
    });
  }
});

describe("unknown input properties are rejected at preview with the nearest known name", () => {
  const cases: {
    rule: string;
    validate: (news: Record<string, unknown>) => { property: string; reason: string }[];
    news: Record<string, unknown>;
    expected: { property: string; reason: string }[];
  }[] = [
    {
      rule: "Volume: sizeGB (a typo of sizeGb) names the property and suggests sizeGb",
      validate: (n) => validateVolumeArgs(n),
      news: { ...base, sizeGB: 10 },
      expected: [{ property: "sizeGB", reason: "unknown property sizeGB: did you mean sizeGb?" }],
    },
    {
      rule: "Volume: a misspelling (regoin, one swap) suggests region",
      validate: (n) => validateVolumeArgs(n),
      news: { ...base, regoin: "ord" },
      expected: [{ property: "regoin", reason: "unknown property regoin: did you mean region?" }],
    },
    {
      rule: "Volume: a typo inside compute names compute.cpukind and suggests compute.cpuKind",
      validate: (n) => validateVolumeArgs(n),
      news: { ...base, compute: { cpukind: "shared" } },
      expected: [
        {
          property: "compute.cpukind",
          reason: "unknown property compute.cpukind: did you mean compute.cpuKind?",
        },
      ],
    },
    {
      rule: "Volume: a name close to nothing lists the names a Volume takes",
      validate: (n) => validateVolumeArgs(n),
      news: { ...base, colour: "blue" },
      expected: [
        {
          property: "colour",
          reason: expect.stringMatching(/^unknown property colour: Volume takes app, name, region, sizeGb, /),
        },
      ],
    },
    {
      rule: "AcmeCertificate: hostName suggests hostname (same letters, other case)",
      validate: validateAcmeCertificateArgs,
      news: { app: "demo-app", hostname: "www.example.com", hostName: "www.example.com" },
      expected: [{ property: "hostName", reason: "unknown property hostName: did you mean hostname?" }],
    },
    {
      rule: "PostgresPasswordRotation: killsessions suggests killSessions",
      validate: validatePostgresPasswordRotationArgs,
      news: { clusterId: "demo-pg", username: "app_user", killsessions: true },
      expected: [
        { property: "killsessions", reason: "unknown property killsessions: did you mean killSessions?" },
      ],
    },
    {
      rule: "PostgresPasswordRotation: a password input is unknown and named by no property",
      validate: validatePostgresPasswordRotationArgs,
      news: { clusterId: "demo-pg", username: "app_user", password: "hunter2" },
      expected: [{ property: "", reason: expect.stringMatching(/^unknown property password: /) }],
    },
    {
      rule: "VolumeSnapshot: waitTimeout suggests waitTimeoutSeconds",
      validate: validateVolumeSnapshotArgs,
      news: { app: "demo-app", volumeId: "vol_1", waitTimeout: 60 },
      expected: [
        {
          property: "waitTimeout",
          reason: expect.stringMatching(
            /^unknown property waitTimeout: VolumeSnapshot takes app, volumeId, /,
          ),
        },
      ],
    },
    {
      rule: "the engine's own members (__provider, other __ names) are not typos",
      validate: (n) => validateVolumeArgs(n),
      news: { ...base, __provider: "exports.handler = __f0;", __internal: 1 },
      expected: [],
    },
    {
      rule: "an unknown property holding a value unknown at preview is still a typo",
      validate: (n) => validateVolumeArgs(n),
      news: { ...base, sizeGB: UNKNOWN },
      expected: [{ property: "sizeGB", reason: "unknown property sizeGB: did you mean sizeGb?" }],
    },
  ];
  for (const c of cases) {
    it(c.rule, () => {
      expect(c.validate(c.news)).toEqual(c.expected);
    });
  }

  const nearest: [string, string, string[], string | undefined][] = [
    ["prefers the same letters in another case", "SIZEGB", ["sizeGb", "size"], "sizeGb"],
    ["takes a swap of neighbours as one edit", "naem", ["name", "app"], "name"],
    ["takes the closest of several candidates", "regio", ["region", "regions2"], "region"],
    ["suggests nothing two edits away from a three-letter name", "abc", ["app", "name"], undefined],
    [
      "allows a third of a long name's length",
      "snapshotRetentionDays",
      ["snapshotRetention"],
      "snapshotRetention",
    ],
  ];
  for (const [rule, name, known, expected] of nearest) {
    it(`nearestName ${rule}`, () => expect(nearestName(name, known)).toBe(expected));
  }
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
