import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CertificateEntryOutput, DnsRequirementsOutput } from "../../../provider";
import * as runtime from "../../../provider/kinds/runtime-entry";
import { makeCert } from "../../support/certs";
import {
  hasUndefined,
  PROVIDER,
  type ProviderHarness,
  rejectionOf,
  startHarness,
  withProvider,
} from "./helpers";

const APP = "demo-app";
let h: ProviderHarness;
let certs: Record<string, { cert: string; key: string }>;

beforeAll(async () => {
  h = await startHarness();
  const [both, both2, wildcard, solo] = await Promise.all([
    makeCert("both.example.com"),
    makeCert("both.example.com"),
    makeCert("*.wild.example.com"),
    makeCert("solo.example.com"),
  ]);
  certs = { both: both!, both2: both2!, wildcard: wildcard!, solo: solo! };
});
afterAll(async () => {
  await h?.close();
});

const hostnames = async (): Promise<string[]> => {
  const state = await h.state();
  return (state.certificates ?? []).map((c) => c.hostname);
};

const custom = (hostname: string, c: { cert: string; key: string }, extra: Record<string, unknown> = {}) =>
  withProvider({ app: APP, hostname, fullchain: c.cert, privateKey: c.key, ...extra });

describe("AcmeCertificate", () => {
  it("requests ACME and outputs status, validation and the DNS requirements", async () => {
    const { id, outs } = await runtime.acmeCertificate.create(
      withProvider({ app: APP, hostname: "acme.example.com" }),
    );
    expect(id).toBe("acme.example.com");
    expect(outs).toMatchObject({
      app: APP,
      hostname: "acme.example.com",
      status: "pending_validation",
      acmeRequested: true,
      configured: false,
      rateLimitedUntil: null,
      validation: { dnsConfigured: false, ownershipTxtConfigured: false },
      validationErrors: [],
      certificates: [],
      dnsRequirements: {
        acmeChallenge: { name: "_acme-challenge.acme.example.com" },
        ownership: { name: "_platform-ownership.acme.example.com" },
      },
      ownershipRecord: { type: "TXT", name: "_platform-ownership.acme.example.com" },
    });
    expect((outs.dnsRequirements as DnsRequirementsOutput).a.length).toBeGreaterThan(0);
    expect(hasUndefined(outs)).toBe(false);
    const read = await runtime.acmeCertificate.read(id, outs);
    expect(read.id).toBe(id);
    expect(
      (await runtime.acmeCertificate.diff(id, read.props, { app: APP, hostname: "acme.example.com" }))
        .changes,
    ).toBe(false);
  });

  it("waits until active once DNS points at the app", async () => {
    const hostname = "ready.example.com";
    const first = await runtime.acmeCertificate.create(withProvider({ app: APP, hostname }));
    const req = first.outs.dnsRequirements as DnsRequirementsOutput;
    await h.control.dns.set([{ type: "A", name: hostname, value: req.a[0] as string }]);
    await runtime.acmeCertificate.delete(first.id, first.outs);
    const { outs } = await runtime.acmeCertificate.create(
      withProvider({ app: APP, hostname, waitForActive: true, waitTimeoutSeconds: 20 }),
    );
    expect(outs.status).toBe("active");
    expect((outs.certificates as CertificateEntryOutput[])[0]).toMatchObject({ source: "platform" });
  });

  it("times out with what is still pending and keeps the request in the stack", async () => {
    const err = await rejectionOf(
      runtime.acmeCertificate.create(
        withProvider({ app: APP, hostname: "slow.example.com", waitForActive: true, waitTimeoutSeconds: 1 }),
      ),
    );
    expect(err.message).toMatch(/did not become active within 1 s \(waitTimeoutSeconds\)/);
    expect(err.message).toMatch(/not yet verified: dns_configured/);
    expect(err.message).toMatch(/_acme-challenge\.slow\.example\.com/);
    expect(err.id).toBe("slow.example.com");
    expect(err.properties.__provider).toBe(PROVIDER);
  });

  it("keeps the certificate in the stack when the DNS check keeps failing during the wait", async () => {
    await h.control.faults.add({
      method: "POST",
      path: "/v1/apps/*/certificates/*/check",
      kind: "status",
      status: 502,
      times: 0,
    });
    try {
      const err = await rejectionOf(
        runtime.acmeCertificate.create(
          withProvider({
            app: APP,
            hostname: "flaky.example.com",
            waitForActive: true,
            waitTimeoutSeconds: 5,
          }),
        ),
      );
      expect(err.message).toMatch(/checking DNS of flaky\.example\.com .*502/);
      expect(err.message).toMatch(/It is kept in the stack; run `pulumi up` again/);
      expect(err.id).toBe("flaky.example.com");
      expect(err.properties).toMatchObject({ acmeRequested: true, __provider: PROVIDER });
    } finally {
      await h.control.faults.clear();
    }
  });

  it("refuses an existing ACME request unless adoptExisting is set", async () => {
    await h.api("POST", `/v1/apps/${APP}/certificates/acme`, { hostname: "taken.example.com" });
    await expect(
      runtime.acmeCertificate.create(withProvider({ app: APP, hostname: "taken.example.com" })),
    ).rejects.toThrow(/already has an ACME certificate requested; set adoptExisting: true/);
    const adopted = await runtime.acmeCertificate.create(
      withProvider({ app: APP, hostname: "taken.example.com", adoptExisting: true }),
    );
    expect(adopted.outs).toMatchObject({ acmeRequested: true, adoptExisting: true });
  });

  it("deleting a hostname that is already gone succeeds", async () => {
    await expect(
      runtime.acmeCertificate.delete("nope.example.com", { app: APP, hostname: "nope.example.com" }),
    ).resolves.toBeUndefined();
  });
});

describe("CustomCertificate", () => {
  it("imports, exposes the ownership record, expiry and issuer, and activates once the TXT record exists", async () => {
    const hostname = "solo.example.com";
    const { id, outs } = await runtime.customCertificate.create(custom(hostname, certs.solo!));
    expect(outs).toMatchObject({
      status: "pending_ownership",
      acmeRequested: false,
      ownershipRecord: { type: "TXT", name: `_platform-ownership.${hostname}` },
      issuer: expect.stringContaining("solo.example.com"),
      expiresAt: expect.stringMatching(/^\d{4}-/),
    });
    const record = outs.ownershipRecord as { name: string; value: string };
    await h.control.dns.set([{ type: "TXT", name: record.name, value: record.value }]);
    const { outs: active } = await runtime.customCertificate.update(id, outs, {
      ...custom(hostname, certs.solo!),
      waitForActive: true,
      waitTimeoutSeconds: 10,
    });
    expect(active.status).toBe("active");
    await runtime.customCertificate.delete(id, active);
    expect(await hostnames()).not.toContain(hostname);
  });

  it("re-imports a new chain and key in place (rotation keeps the hostname)", async () => {
    const hostname = "both.example.com";
    const first = await runtime.customCertificate.create(custom(hostname, certs.both!));
    const news = custom(hostname, certs.both2!);
    const d = await runtime.customCertificate.diff(first.id, first.outs, news);
    expect(d).toMatchObject({ changes: true, replaces: [] });
    const before = (await h.requests()).length;
    const { outs } = await runtime.customCertificate.update(first.id, first.outs, news);
    expect(outs.fullchain).toBe(certs.both2!.cert);
    const calls = (await h.requests()).slice(before).map((r) => `${r.method} ${r.path}`);
    expect(calls).toContain(`POST /v1/apps/${APP}/certificates/custom`);
    expect(calls.some((c) => c.startsWith("DELETE"))).toBe(false);
    await runtime.customCertificate.delete(first.id, outs);
  });

  it("works end to end for a wildcard hostname", async () => {
    const hostname = "*.wild.example.com";
    const { id, outs } = await runtime.customCertificate.create(custom(hostname, certs.wildcard!));
    expect(outs.hostname).toBe(hostname);
    expect((await runtime.customCertificate.read(id, outs)).id).toBe(hostname);
    await runtime.customCertificate.delete(id, outs);
    expect((await runtime.customCertificate.read(id, outs)).id).toBe("");
    expect(await hostnames()).not.toContain(hostname);
  });
});

describe("both kinds on one hostname", () => {
  const hostname = "both.example.com";

  it("deleting ACME keeps the custom certificate and the hostname; deleting the last kind removes the hostname", async () => {
    const acme = await runtime.acmeCertificate.create(withProvider({ app: APP, hostname }));
    const cust = await runtime.customCertificate.create(custom(hostname, certs.both!));
    expect(cust.outs.acmeRequested).toBe(true);

    await runtime.acmeCertificate.delete(acme.id, acme.outs);
    expect(await hostnames()).toContain(hostname);
    expect((await runtime.acmeCertificate.read(acme.id, acme.outs)).id).toBe("");
    expect((await runtime.customCertificate.read(cust.id, cust.outs)).id).toBe(hostname);

    await runtime.customCertificate.delete(cust.id, cust.outs);
    expect(await hostnames()).not.toContain(hostname);
  });

  it("deleting custom first keeps ACME, then deleting ACME removes the hostname", async () => {
    const acme = await runtime.acmeCertificate.create(withProvider({ app: APP, hostname }));
    const cust = await runtime.customCertificate.create(custom(hostname, certs.both!));
    await runtime.customCertificate.delete(cust.id, cust.outs);
    expect((await runtime.customCertificate.read(cust.id, cust.outs)).id).toBe("");
    expect((await runtime.acmeCertificate.read(acme.id, acme.outs)).id).toBe(hostname);
    await runtime.acmeCertificate.delete(acme.id, acme.outs);
    expect(await hostnames()).not.toContain(hostname);
  });

  it("deleting both at once (as destroy does) leaves no hostname", async () => {
    for (let round = 0; round < 5; round++) {
      const acme = await runtime.acmeCertificate.create(withProvider({ app: APP, hostname }));
      const cust = await runtime.customCertificate.create(custom(hostname, certs.both!));
      await Promise.all([
        runtime.acmeCertificate.delete(acme.id, acme.outs),
        runtime.customCertificate.delete(cust.id, cust.outs),
      ]);
      expect(await hostnames()).not.toContain(hostname);
    }
  });

  it("refresh shows the custom certificate gone when its kind was removed elsewhere", async () => {
    const acme = await runtime.acmeCertificate.create(withProvider({ app: APP, hostname }));
    const cust = await runtime.customCertificate.create(custom(hostname, certs.both!));
    await h.api("DELETE", `/v1/apps/${APP}/certificates/${hostname}/custom`);
    expect((await runtime.customCertificate.read(cust.id, cust.outs)).id).toBe("");
    await runtime.customCertificate.delete(cust.id, cust.outs);
    expect(await hostnames()).toContain(hostname);
    await runtime.acmeCertificate.delete(acme.id, acme.outs);
    expect(await hostnames()).not.toContain(hostname);
  });
});
