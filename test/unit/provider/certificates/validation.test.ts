import { beforeAll, describe, expect, it } from "vitest";
import {
  validateAcmeCertificateArgs,
  validateCustomCertificateArgs,
} from "../../../../provider/kinds/declarations";
import { certificateNameCovers, hostnameProblem, UNKNOWN } from "../../../../provider/model/validation";
import { days, makeCert } from "../../../support/certs";

describe("hostname rules", () => {
  const cases: [string, string, RegExp | undefined][] = [
    ["accepts a plain hostname", "app.example.com", undefined],
    ["accepts a wildcard hostname", "*.example.com", undefined],
    [
      "rejects uppercase, naming the lowercase hostname",
      "App.example.com",
      /^must be lowercase: use app\.example\.com$/,
    ],
    [
      "rejects a URL, saying to drop the scheme",
      "https://www.example.com",
      /^must be a name, not a URL: drop the scheme \(https:\/\/\) and use www\.example\.com$/,
    ],
    [
      "rejects a URL with a path and capitals, naming the hostname in it",
      "HTTPS://WWW.Example.com/shop",
      /^must be a name, not a URL: drop the scheme \(HTTPS:\/\/\) and use www\.example\.com$/,
    ],
    ["rejects a single label", "localhost", /two labels/],
    [
      "rejects a wildcard over a single label",
      "*.com",
      /^with a wildcard must cover a domain of at least two labels/,
    ],
    [
      "rejects a wildcard inside a label",
      "a*.example.com",
      /^may have a wildcard only as its whole first label/,
    ],
    [
      "rejects a wildcard that is not first",
      "a.*.example.com",
      /^may have a wildcard only as its whole first label/,
    ],
    ["rejects a label starting with a hyphen", "-a.example.com", /hyphen/],
    [
      "rejects a trailing dot, naming the hostname without it",
      "app.example.com.",
      /^must not end with a dot: use app\.example\.com$/,
    ],
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
      ["hostname", /^hostname must be lowercase: use www\.example\.com \(got "WWW\.example\.com"\)$/],
    ],
    [
      "rejects a URL, saying to drop the scheme",
      { app: "demo-app", hostname: "https://www.example.com" },
      [
        "hostname",
        /^hostname must be a name, not a URL: drop the scheme \(https:\/\/\) and use www\.example\.com \(got "https:\/\/www\.example\.com"\)$/,
      ],
    ],
    [
      "rejects a wildcard inside a label, in a sentence",
      { app: "demo-app", hostname: "www.*.example.com" },
      ["hostname", /^hostname may have a wildcard only as its whole first label \(\*\.example\.com\)/],
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

describe("CustomCertificate expiryWarningDays", () => {
  it.each([-1, 366, 2.5])("rejects %j, naming the range and the default", async (expiryWarningDays) => {
    const { makeCert } = await import("../../../support/certs");
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
