import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import type { DnsRecord } from "../../../emulator";
import { days, makeCert, otherKey, type TestCert } from "../../support/certs";
import { startTestEmulator, type TestEmulator } from "../../support/emulator";

let t: TestEmulator;
const C = "/v1/apps/demo-app/certificates";
let appCert: TestCert;
let wildcard: TestCert;

beforeAll(async () => {
  t = await startTestEmulator();
  appCert = await makeCert("app.example.com");
  wildcard = await makeCert("*.example.com");
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.control.reset();
});

const acme = (hostname: string) => t.api("POST", `${C}/acme`, { hostname });
const custom = (hostname: string, c: TestCert) =>
  t.api("POST", `${C}/custom`, { hostname, fullchain: c.cert, private_key: c.key });
const setDns = (records: DnsRecord[]) => t.control.dns.set(records);
const path = (hostname: string) => `${C}/${encodeURIComponent(hostname).replace(/\*/g, "%2A")}`;

describe("ACME request", () => {
  test("is 201 pending_validation with acme_requested true, configured false and no certificates", async () => {
    const res = await acme("app.example.com");
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      hostname: "app.example.com",
      status: "pending_validation",
      acme_requested: true,
      configured: false,
      certificates: [],
      rate_limited_until: null,
      validation_errors: [],
      validation: {
        dns_configured: false,
        alpn_configured: false,
        http_configured: false,
        ownership_txt_configured: false,
      },
    });
    expect(typeof res.body.dns_provider).toBe("string");
    const req = res.body.dns_requirements;
    expect(req.a[0]).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    expect(req.aaaa[0]).toContain(":");
    expect(req.cname).toBe("demo-app.platform.internal");
    expect(req.acme_challenge.name).toBe("_acme-challenge.app.example.com");
    expect(req.acme_challenge.target).toBeTruthy();
    expect(req.ownership.name).toBe("_platform-ownership.app.example.com");
    expect(req.ownership.app_value).not.toBe(req.ownership.org_value);
  });

  test("dns_requirements are stable for the app", async () => {
    const a = (await acme("a.example.com")).body.dns_requirements;
    const b = (await acme("b.example.com")).body.dns_requirements;
    expect(b.a).toEqual(a.a);
    expect(b.aaaa).toEqual(a.aaaa);
    expect(b.ownership.app_value).toBe(a.ownership.app_value);
  });

  test("a missing or malformed hostname is rejected", async () => {
    const missing = await t.api("POST", `${C}/acme`, {});
    expect(missing.status).toBe(400);
    expect(missing.body.error).toContain("hostname");
    const bad = await acme("not a host");
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain("not a valid hostname");
  });

  test("an unknown app is a 404 naming it", async () => {
    const res = await t.api("POST", "/v1/apps/ghost/certificates/acme", { hostname: "a.example.com" });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('app "ghost" not found');
  });
});

describe("custom import validates the certificate for real", () => {
  test("a valid certificate and key is 201 pending_ownership with a custom entry", async () => {
    const res = await custom("app.example.com", appCert);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: "pending_ownership", acme_requested: false, configured: false });
    expect(res.body.certificates).toHaveLength(1);
    expect(res.body.certificates[0]).toMatchObject({
      source: "custom",
      status: "pending_ownership",
      issuer: "app.example.com",
      issued: [],
    });
  });

  test("an expired certificate is rejected: not expired rule", async () => {
    const expired = await makeCert("app.example.com", ["app.example.com"], {
      from: Date.now() - days(400),
      to: Date.now() - days(10),
    });
    const res = await custom("app.example.com", expired);
    expect(res.status).toBe(422);
    expect(res.body.error).toMatch(/certificate expired on/);
  });

  test("a key that does not belong to the certificate is rejected: key match rule", async () => {
    const res = await custom("app.example.com", { cert: appCert.cert, key: otherKey() });
    expect(res.status).toBe(422);
    expect(res.body.error).toBe("private key does not match the certificate");
  });

  test("a hostname absent from SAN and CN is rejected: hostname rule", async () => {
    const res = await custom("shop.example.com", appCert);
    expect(res.status).toBe(422);
    expect(res.body.error).toMatch(/hostname "shop.example.com" is not covered/);
  });

  test("a hostname only in the CN is accepted (SAN or CN)", async () => {
    const cnOnly = await makeCert("cn.example.com", ["san.example.com"]);
    expect((await custom("cn.example.com", cnOnly)).status).toBe(201);
  });

  test("garbage PEM is rejected naming the field", async () => {
    const res = await custom("app.example.com", { cert: "not a pem", key: appCert.key });
    expect(res.status).toBe(422);
    expect(res.body.error).toMatch(/fullchain/);
    const badKey = await custom("app.example.com", { cert: appCert.cert, key: "nope" });
    expect(badKey.status).toBe(422);
    expect(badKey.body.error).toMatch(/private_key/);
  });

  test("a missing fullchain is rejected naming the field", async () => {
    const res = await t.api("POST", `${C}/custom`, { hostname: "app.example.com", private_key: appCert.key });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain("fullchain");
  });

  test("a wildcard certificate is accepted for the wildcard hostname, read back through %2A", async () => {
    expect((await custom("*.example.com", wildcard)).status).toBe(201);
    const res = await t.api("GET", `${C}/%2A.example.com`);
    expect(res.status).toBe(200);
    expect(res.body.hostname).toBe("*.example.com");
    expect(res.body.dns_requirements.ownership.name).toBe("_platform-ownership.example.com");
  });

  test("a wildcard certificate covers one label below it, not two", async () => {
    expect((await custom("api.example.com", wildcard)).status).toBe(201);
    expect((await custom("a.b.example.com", wildcard)).status).toBe(422);
  });
});

describe("check against the simulated DNS", () => {
  test("without records nothing moves and dns_records are empty", async () => {
    await custom("app.example.com", appCert);
    const res = await t.api("POST", `${path("app.example.com")}/check`);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("pending_ownership");
    expect(res.body.dns_records).toEqual({
      a: [],
      aaaa: [],
      cname: [],
      resolved_addresses: [],
      soa: expect.any(String),
      acme_challenge_cname: "",
      ownership_txt: "",
    });
    expect(res.body.validation_errors.length).toBeGreaterThan(0);
  });

  test("the ownership TXT record activates a custom certificate, and GET shows it afterwards", async () => {
    const created = await custom("app.example.com", appCert);
    const own = created.body.dns_requirements.ownership;
    await setDns([{ type: "TXT", name: own.name, value: own.app_value }]);
    expect((await t.api("GET", path("app.example.com"))).body.status).toBe("pending_ownership");
    const res = await t.api("POST", `${path("app.example.com")}/check`);
    expect(res.body).toMatchObject({ status: "active", configured: true });
    expect(res.body.certificates[0]).toMatchObject({ source: "custom", status: "active" });
    expect(res.body.validation.ownership_txt_configured).toBe(true);
    expect(res.body.dns_records.ownership_txt).toBe(own.app_value);
    expect((await t.api("GET", path("app.example.com"))).body.status).toBe("active");
  });

  test("the org value also proves ownership; a wrong TXT value does not", async () => {
    const own = (await custom("app.example.com", appCert)).body.dns_requirements.ownership;
    await setDns([{ type: "TXT", name: own.name, value: "wrong" }]);
    expect((await t.api("POST", `${path("app.example.com")}/check`)).body.status).toBe("pending_ownership");
    await setDns([{ type: "TXT", name: own.name, value: own.org_value }]);
    expect((await t.api("POST", `${path("app.example.com")}/check`)).body.status).toBe("active");
  });

  test("an A record at the app issues an ACME certificate: ecdsa from lets_encrypt", async () => {
    const req = (await acme("app.example.com")).body.dns_requirements;
    await setDns([{ type: "A", name: "app.example.com", value: req.a[0] }]);
    const res = await t.api("POST", `${path("app.example.com")}/check`);
    expect(res.body).toMatchObject({ status: "active", configured: true, acme_requested: true });
    expect(res.body.validation).toMatchObject({
      dns_configured: true,
      alpn_configured: true,
      http_configured: true,
    });
    expect(res.body.certificates).toHaveLength(1);
    const entry = res.body.certificates[0];
    expect(entry).toMatchObject({ source: "platform", status: "active", issuer: null });
    expect(entry.issued).toEqual([
      { type: "ecdsa", certificate_authority: "lets_encrypt", expires_at: expect.any(String) },
    ]);
    expect(res.body.dns_records.a).toEqual(req.a);
    expect(res.body.dns_records.resolved_addresses).toContain(req.a[0]);
  });

  test("a CNAME to the app's hostname validates ACME and resolves to the app's addresses", async () => {
    const req = (await acme("www.example.com")).body.dns_requirements;
    await setDns([{ type: "CNAME", name: "www.example.com", value: req.cname }]);
    const res = await t.api("POST", `${path("www.example.com")}/check`);
    expect(res.body.status).toBe("active");
    expect(res.body.dns_records.cname).toEqual([req.cname]);
    expect(res.body.dns_records.resolved_addresses).toEqual(expect.arrayContaining([...req.a, ...req.aaaa]));
  });

  test("an A record elsewhere does not validate ACME", async () => {
    await acme("app.example.com");
    await setDns([{ type: "A", name: "app.example.com", value: "192.0.2.1" }]);
    const res = await t.api("POST", `${path("app.example.com")}/check`);
    expect(res.body.status).toBe("pending_validation");
    expect(res.body.validation.dns_configured).toBe(false);
  });

  test("a wildcard needs the _acme-challenge CNAME: an A record is not enough", async () => {
    const req = (await acme("*.example.com")).body.dns_requirements;
    expect(req.acme_challenge.name).toBe("_acme-challenge.example.com");
    await setDns([{ type: "A", name: "*.example.com", value: req.a[0] }]);
    expect((await t.api("POST", `${C}/%2A.example.com/check`)).body.status).toBe("pending_validation");
    await setDns([{ type: "CNAME", name: req.acme_challenge.name, value: req.acme_challenge.target }]);
    const res = await t.api("POST", `${C}/%2A.example.com/check`);
    expect(res.body.status).toBe("active");
    expect(res.body.dns_records.acme_challenge_cname).toBe(req.acme_challenge.target);
  });

  test("DELETE /__emulator/dns clears the records", async () => {
    await setDns([{ type: "A", name: "x.example.com", value: "192.0.2.1" }]);
    expect((await t.api("GET", "/__emulator/dns")).body.records).toHaveLength(1);
    await t.api("DELETE", "/__emulator/dns");
    expect((await t.api("GET", "/__emulator/dns")).body.records).toEqual([]);
  });
});

describe("both kinds on one hostname and the delete rules", () => {
  const activateBoth = async () => {
    const req = (await acme("app.example.com")).body.dns_requirements;
    await custom("app.example.com", appCert);
    await setDns([
      { type: "A", name: "app.example.com", value: req.a[0] },
      { type: "TXT", name: req.ownership.name, value: req.ownership.app_value },
    ]);
    return (await t.api("POST", `${path("app.example.com")}/check`)).body;
  };

  test("custom is primary and ACME the fallback: custom listed first", async () => {
    const body = await activateBoth();
    expect(body.status).toBe("active");
    expect(body.acme_requested).toBe(true);
    expect(body.certificates.map((c: { source: string }) => c.source)).toEqual(["custom", "platform"]);
  });

  test("rule 5: delete hostname removes it and all its certificates (204)", async () => {
    await activateBoth();
    const res = await t.api("DELETE", path("app.example.com"));
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    const gone = await t.api("GET", path("app.example.com"));
    expect(gone.status).toBe(404);
    expect(gone.body.error).toBe('certificate for hostname "app.example.com" not found in app "demo-app"');
    expect((await t.api("GET", C)).body.total_count).toBe(0);
  });

  test("rule 6: delete ACME keeps the custom certificate served and the hostname", async () => {
    await activateBoth();
    const res = await t.api("DELETE", `${path("app.example.com")}/acme`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ acme_requested: false, status: "active" });
    expect(res.body.certificates.map((c: { source: string }) => c.source)).toEqual(["custom"]);
    expect(res.body).not.toHaveProperty("dns_provider");
    expect(res.body).not.toHaveProperty("rate_limited_until");
    expect((await t.api("GET", path("app.example.com"))).status).toBe(200);
  });

  test("rule 7: delete custom keeps the ACME certificate served and the hostname", async () => {
    await activateBoth();
    const res = await t.api("DELETE", `${path("app.example.com")}/custom`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ acme_requested: true, status: "active" });
    expect(res.body.certificates.map((c: { source: string }) => c.source)).toEqual(["platform"]);
    expect(res.body).not.toHaveProperty("dns_provider");
    expect(res.body).not.toHaveProperty("rate_limited_until");
  });

  test("deleting the last kind keeps the hostname, with no certificate", async () => {
    await acme("app.example.com");
    const res = await t.api("DELETE", `${path("app.example.com")}/acme`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ acme_requested: false, configured: false, certificates: [] });
    const get = await t.api("GET", path("app.example.com"));
    expect(get.status).toBe(200);
    expect(get.body.status).toBe("not_configured");
  });

  test("deleting a kind that is not there is a 404 saying so", async () => {
    await acme("app.example.com");
    const res = await t.api("DELETE", `${path("app.example.com")}/custom`);
    expect(res.status).toBe(404);
    expect(res.body.error).toContain("no custom certificate");
  });
});

describe("list", () => {
  const hosts = ["a.example.com", "b.example.com", "c.example.org", "d.example.com", "e.example.com"];
  beforeEach(async () => {
    for (const h of hosts) await acme(h);
  });

  test("returns list entries with total_count", async () => {
    const res = await t.api("GET", C);
    expect(res.status).toBe(200);
    expect(res.body.total_count).toBe(5);
    expect(res.body).not.toHaveProperty("next_cursor");
    expect(res.body.certificates[0]).toEqual({
      hostname: "a.example.com",
      status: "pending_validation",
      dns_provider: expect.any(String),
      acme_dns_configured: false,
      acme_alpn_configured: false,
      acme_http_configured: false,
      ownership_txt_configured: false,
      configured: false,
      acme_requested: true,
      has_custom_certificate: false,
      has_platform_certificate: false,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
  });

  test("filter keeps hostnames containing the substring", async () => {
    const res = await t.api("GET", `${C}?filter=example.org`);
    expect(res.body.total_count).toBe(1);
    expect(res.body.certificates.map((c: { hostname: string }) => c.hostname)).toEqual(["c.example.org"]);
  });

  test("limit and cursor page through all entries; next_cursor is absent on the last page", async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const res = await t.api("GET", `${C}?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      expect(res.body.total_count).toBe(5);
      expect(res.body.certificates.length).toBeLessThanOrEqual(2);
      seen.push(...res.body.certificates.map((c: { hostname: string }) => c.hostname));
      cursor = res.body.next_cursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual([...hosts].sort());
  });

  test("an invalid cursor or limit is a 400 naming it", async () => {
    const badCursor = await t.api("GET", `${C}?cursor=garbage`);
    expect(badCursor.status).toBe(400);
    expect(badCursor.body.error).toContain("cursor");
    const badLimit = await t.api("GET", `${C}?limit=0`);
    expect(badLimit.status).toBe(400);
    expect(badLimit.body.error).toContain("limit");
  });
});
