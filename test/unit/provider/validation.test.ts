import { beforeAll, describe, expect, it } from "vitest";
import {
  certificateNameCovers,
  hostnameProblem,
  UNKNOWN,
  validateAcmeCertificateArgs,
  validateCustomCertificateArgs,
  validatePostgresPasswordRotationArgs,
  validateVolumeArgs,
  validateVolumeSnapshotArgs,
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
  const cases: [string, Record<string, unknown>, string | undefined][] = [
    ["accepts app and hostname", { app: "demo-app", hostname: "www.example.com" }, undefined],
    ["requires hostname", { app: "demo-app" }, "hostname"],
    ["rejects an uppercase hostname", { app: "demo-app", hostname: "WWW.example.com" }, "hostname"],
    [
      "rejects a waitTimeoutSeconds of 0",
      { app: "demo-app", hostname: "a.example.com", waitTimeoutSeconds: 0 },
      "waitTimeoutSeconds",
    ],
    [
      "rejects a non-boolean waitForActive",
      { app: "demo-app", hostname: "a.example.com", waitForActive: 1 },
      "waitForActive",
    ],
    ["skips an unknown hostname", { app: "demo-app", hostname: UNKNOWN }, undefined],
  ];
  for (const [rule, news, property] of cases) {
    it(rule, () => {
      const failures = validateAcmeCertificateArgs(news);
      if (property) expect(failures.map((f) => f.property)).toContain(property);
      else expect(failures).toEqual([]);
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
  it("rejects an expired certificate", () => {
    const failures = validateCustomCertificateArgs(args(expired, "old.example.com"));
    expect(failures).toEqual([{ property: "fullchain", reason: expect.stringMatching(/expired on/) }]);
  });
  it("rejects a key that does not match the certificate", () => {
    const failures = validateCustomCertificateArgs(args(good, "app.example.com", { privateKey: other.key }));
    expect(failures).toEqual([{ property: "privateKey", reason: expect.stringMatching(/does not match/) }]);
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
  it("rejects text that holds no PEM certificate", () => {
    const failures = validateCustomCertificateArgs(args(good, "app.example.com", { fullchain: "hello" }));
    expect(failures[0]).toEqual({
      property: "fullchain",
      reason: expect.stringMatching(/no PEM certificate/),
    });
  });
  it("rejects an unreadable private key without echoing it", () => {
    const failures = validateCustomCertificateArgs(
      args(good, "app.example.com", { privateKey: "not-a-key-SECRET" }),
    );
    expect(failures).toEqual([{ property: "privateKey", reason: expect.not.stringContaining("SECRET") }]);
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
  const cases: [string, Record<string, unknown>, string | undefined][] = [
    ["accepts clusterId and username", { clusterId: "demo-pg", username: "app_user" }, undefined],
    [
      "accepts triggers of strings",
      { clusterId: "demo-pg", username: "app_user", triggers: { v: "1" } },
      undefined,
    ],
    ["requires username", { clusterId: "demo-pg" }, "username"],
    ["rejects a username with a slash", { clusterId: "demo-pg", username: "a/b" }, "username"],
    [
      "rejects a non-boolean killSessions",
      { clusterId: "demo-pg", username: "u", killSessions: "yes" },
      "killSessions",
    ],
    [
      "rejects a non-string trigger value",
      { clusterId: "demo-pg", username: "u", triggers: { v: 1 } },
      "triggers.v",
    ],
    ["skips unknown triggers", { clusterId: "demo-pg", username: "u", triggers: UNKNOWN }, undefined],
  ];
  for (const [rule, news, property] of cases) {
    it(rule, () => {
      const failures = validatePostgresPasswordRotationArgs(news);
      if (property) expect(failures.map((f) => f.property)).toContain(property);
      else expect(failures).toEqual([]);
    });
  }
});

describe("validateVolumeSnapshotArgs", () => {
  const cases: [string, Record<string, unknown>, string | undefined][] = [
    ["accepts app and volumeId", { app: "demo-app", volumeId: "vol_1" }, undefined],
    [
      "accepts an unknown volumeId (volume created in the same up)",
      { app: "demo-app", volumeId: UNKNOWN },
      undefined,
    ],
    ["requires volumeId", { app: "demo-app" }, "volumeId"],
    [
      "rejects waitTimeoutSeconds above one day",
      { app: "demo-app", volumeId: "v", waitTimeoutSeconds: 86_401 },
      "waitTimeoutSeconds",
    ],
  ];
  for (const [rule, news, property] of cases) {
    it(rule, () => {
      const failures = validateVolumeSnapshotArgs(news);
      if (property) expect(failures.map((f) => f.property)).toContain(property);
      else expect(failures).toEqual([]);
    });
  }
});
