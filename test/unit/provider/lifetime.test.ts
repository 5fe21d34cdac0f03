import { beforeAll, describe, expect, it } from "vitest";
import { customCertificateDeclaration } from "../../../provider/kinds/declarations";
import { inputFailures } from "../../../provider/model/input-check";
import {
  certificateExpiryWarning,
  daysUntil,
  grownElsewhereWarning,
  snapshotSourceChangedWarning,
  sourceChangedWarning,
} from "../../../provider/model/lifetime";
import { days, makeCert, type TestCert } from "../../support/certs";

const NOW = new Date("2027-03-01T12:00:00Z");
const at = (offsetDays: number) => new Date(NOW.getTime() + days(offsetDays)).toISOString();

describe("certificateExpiryWarning", () => {
  it("says nothing further away than the window", () => {
    expect(certificateExpiryWarning("api.example.com", at(31), NOW)).toBeUndefined();
    expect(certificateExpiryWarning("api.example.com", at(8), NOW, 7)).toBeUndefined();
  });
  it("names the hostname, the expiry date and the days left from 30 days before", () => {
    expect(certificateExpiryWarning("api.example.com", at(12.5), NOW)).toBe(
      "the custom certificate of api.example.com expires on 2027-03-14 00:00 UTC (in 12 days): import a renewed chain (new fullchain and privateKey) and run `pulumi up` before then",
    );
    expect(certificateExpiryWarning("api.example.com", at(0.5), NOW)).toMatch(/\(in less than a day\)/);
  });
  it("is louder once expired", () => {
    expect(certificateExpiryWarning("*.example.com", at(-3.2), NOW)).toBe(
      "EXPIRED: the custom certificate of *.example.com expired on 2027-02-26 07:12 UTC (3 days ago); clients served it see an expired certificate: import a renewed chain (new fullchain and privateKey) and run `pulumi up`",
    );
  });
  it("with a window of 0 warns only once expired", () => {
    expect(certificateExpiryWarning("a.example.com", at(0.1), NOW, 0)).toBeUndefined();
    expect(certificateExpiryWarning("a.example.com", at(-0.1), NOW, 0)).toMatch(
      /^EXPIRED: .*less than a day ago/,
    );
  });
});

describe("daysUntil", () => {
  it("counts whole days left, negative once expired, null when unknown", () => {
    expect(daysUntil(at(12.5), NOW)).toBe(12);
    expect(daysUntil(at(-0.5), NOW)).toBe(-1);
    expect(daysUntil(null, NOW)).toBeNull();
    expect(daysUntil("not a date", NOW)).toBeNull();
  });
});

describe("grownElsewhereWarning", () => {
  it("warns only when the platform's volume is larger than the program asks", () => {
    expect(grownElsewhereWarning("data", "vol_1", 10, 3)).toMatch(
      /^volume data \(vol_1\) is 10 GB at the platform, more than sizeGb 3 in the program: it grew outside this stack/,
    );
    expect(grownElsewhereWarning("data", "vol_1", 10, 10)).toBeUndefined();
  });

  it("for a restore or fork, names the larger snapshot or source as a reason", () => {
    expect(grownElsewhereWarning("restored", "vol_2", 4, 2, true)).toMatch(
      /: its snapshot or source volume was larger, or it grew outside this stack\. It keeps 4 GB/,
    );
  });
});

describe("a snapshot, fork or restore whose program names another source (a snapshot is an event)", () => {
  it("warns with what was kept and how to take or fork again; nothing when the source is the same", () => {
    expect(snapshotSourceChangedWarning("vs_1", "vol_old", "vol_new")).toMatch(
      /^snapshot vs_1 was taken of volume vol_old; volumeId is now vol_new\. .* Change triggers to take a snapshot of vol_new$/,
    );
    expect(snapshotSourceChangedWarning("vs_1", "vol_old", "vol_old")).toBeUndefined();
    expect(sourceChangedWarning("sourceVolumeId", "fork", "vol_old", "vol_new", "dynamic")).toMatch(
      /^volume fork: sourceVolumeId changes from vol_old to vol_new; nothing is forked from vol_new\. A fork is an event.*replaceWith: \[source\].*replaceOnChanges: \["sourceVolumeId"\].*pulumi up --replace/,
    );
    expect(sourceChangedWarning("sourceVolumeId", "fork", "vol_old", "vol_old", "plugin")).toBeUndefined();
  });

  it("a restored volume: says the volume and its data are kept, that it is said once, and how to restore again", () => {
    const said =
      "volume restored: snapshotId changes from vs_old to vs_new; nothing is restored from vs_new. A restore is an event: the volume and its data are kept (said at the preview and the up of this change only). ";
    // The dynamic door serves TypeScript alone: its advice is TypeScript's.
    expect(sourceChangedWarning("snapshotId", "restored", "vs_old", "vs_new", "dynamic")).toBe(
      `${said}To restore again whenever the VolumeSnapshot is made anew, give the Volume the option replaceWith naming it, or replacementTrigger set to its id (TypeScript \`replaceWith: [snap]\` or \`replaceOnChanges: ["snapshotId"]\`); to restore again once, replace it (\`pulumi up --replace <urn>\`)`,
    );
    // The plugin serves every language: the engine's option in each, and where replaceOnChanges works.
    expect(sourceChangedWarning("snapshotId", "restored", "vs_old", "vs_new", "plugin")).toBe(
      `${said}To restore again whenever the VolumeSnapshot is made anew, give the Volume the resource option replaceWith naming it (TypeScript \`replaceWith: [snap]\` or \`replaceOnChanges: ["snapshotId"]\`; Python \`replace_with=[snap]\`; Go \`pulumi.ReplaceWith([]pulumi.Resource{snap})\`; YAML \`options: { replaceWith: ["\${snap}"] }\`), or replacementTrigger set to its id; \`replaceOnChanges: ["snapshotId"]\` does this only from TypeScript classes; to restore again once, replace it (\`pulumi up --replace <urn>\`)`,
    );
    expect(sourceChangedWarning("snapshotId", "restored", "vs_old", "vs_old", "plugin")).toBeUndefined();
    expect(sourceChangedWarning("snapshotId", "restored", "vs_old", undefined, "plugin")).toMatch(
      /^volume restored: snapshotId \(vs_old\) may change at this up .*nothing is restored from a new value\. A restore is an event/,
    );
  });
});

describe("CustomCertificate expiry is checked when a chain is imported, not afterwards", () => {
  let expired: TestCert;
  let other: TestCert;
  const host = "old.example.com";
  beforeAll(async () => {
    [expired, other] = await Promise.all([
      makeCert(host, [host], { from: Date.now() - days(60), to: Date.now() - days(1) }),
      makeCert(host, [host], { from: Date.now() - days(60), to: Date.now() - days(2) }),
    ]);
  });
  const inputs = (c: TestCert, hostname = host) => ({
    app: "demo-app",
    hostname,
    fullchain: c.cert,
    privateKey: c.key,
  });
  const failures = (news: Record<string, unknown>, olds: Record<string, unknown>) =>
    inputFailures(customCertificateDeclaration, news, olds).map((f) => f.reason);

  it("a new resource with an expired chain is refused", () => {
    expect(failures(inputs(expired), {})).toEqual([
      expect.stringMatching(/^fullchain: the certificate expired on /),
    ]);
  });
  it("the same chain, key and hostname as imported before are not refused for expiring since", () => {
    expect(failures(inputs(expired), inputs(expired))).toEqual([]);
  });
  it("a changed chain and key are imported again, so an expired one is refused", () => {
    expect(failures(inputs(expired), inputs(other))).toEqual([
      expect.stringMatching(/^fullchain: the certificate expired on /),
    ]);
  });
  it("the same chain for another app is a new import, so it is refused", () => {
    expect(failures(inputs(expired), { ...inputs(expired), app: "other-app" })).toEqual([
      expect.stringMatching(/^fullchain: the certificate expired on /),
    ]);
  });
  it("never puts PEM text in a failure", () => {
    for (const reason of failures(inputs(expired), {})) expect(reason).not.toMatch(/-----BEGIN|PRIVATE KEY/);
  });
});
