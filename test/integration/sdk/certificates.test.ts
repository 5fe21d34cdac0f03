import { generate } from "selfsigned";
import { describe, expect, it } from "vitest";
import { AmbiguousRequestError, isNotFound, type PlatformClient, TimeoutError } from "../../../sdk/index";
import { SDK_TIMING, type TestEmulator, useTestEmulator } from "../../support/emulator";

const APP = "demo-app";
let h: TestEmulator;
let client: PlatformClient;

useTestEmulator({
  emulator: { timing: SDK_TIMING },
  resetEachTest: true,
  started: (started) => {
    h = started;
    client = h.client();
  },
});

async function selfSigned(hostname: string) {
  const pems = await generate([{ name: "commonName", value: hostname }], {
    keySize: 2048,
    extensions: [{ name: "subjectAltName", altNames: [{ type: 2, value: hostname }] }],
  } as never);
  return { fullchain: pems.cert, private_key: pems.private };
}

describe("certificates against the emulator", () => {
  it("requests an ACME certificate, gets it, checks DNS, stops ACME and deletes the hostname", async () => {
    const details = await client.certificates.requestAcme(APP, "acme.example.com");
    expect(details).toMatchObject({
      hostname: "acme.example.com",
      acme_requested: true,
      configured: false,
      status: "pending_validation",
    });
    expect(details.dns_requirements.acme_challenge.name).toBe("_acme-challenge.acme.example.com");
    expect(await client.certificates.get(APP, "acme.example.com")).toMatchObject({
      hostname: "acme.example.com",
    });
    const check = await client.certificates.check(APP, "acme.example.com");
    expect(check.dns_records).toMatchObject({ a: expect.any(Array), soa: expect.any(String) });
    expect((await client.certificates.deleteAcme(APP, "acme.example.com")).acme_requested).toBe(false);
    await client.certificates.delete(APP, "acme.example.com");
    expect(isNotFound(await client.certificates.get(APP, "acme.example.com").catch((e) => e))).toBe(true);
  });

  it("imports a custom certificate that becomes active once the ownership TXT record resolves", async () => {
    const host = "custom.example.com";
    const imported = await client.certificates.importCustom(APP, {
      hostname: host,
      ...(await selfSigned(host)),
    });
    expect(imported).toMatchObject({ status: "pending_ownership", acme_requested: false });
    expect(imported.certificates[0]).toMatchObject({ source: "custom", issued: [] });
    const { name, app_value } = imported.dns_requirements.ownership;
    await h.control.dns.set([{ type: "TXT", name, value: app_value }]);
    const checked = await client.certificates.check(APP, host);
    expect(checked.dns_records?.ownership_txt).toBe(app_value);
    expect((await client.certificates.get(APP, host)).status).toBe("active");
    const afterDelete = await client.certificates.deleteCustom(APP, host);
    expect(afterDelete.certificates.filter((c) => c.source === "custom")).toEqual([]);
  });

  it("a certificate that does not cover the hostname is a 422 naming the problem", async () => {
    const err = await client.certificates
      .importCustom(APP, { hostname: "other.example.com", ...(await selfSigned("nope.example.com")) })
      .catch((e) => e);
    expect(err.status).toBe(422);
    expect(err.platformMessage).toMatch(/not covered/);
  });

  it("a wildcard hostname travels as %2A in every path", async () => {
    await client.certificates.requestAcme(APP, "*.wild.example.com");
    await client.certificates.get(APP, "*.wild.example.com");
    await client.certificates.check(APP, "*.wild.example.com");
    await client.certificates.deleteAcme(APP, "*.wild.example.com");
    await client.certificates.delete(APP, "*.wild.example.com");
    const paths = (await h.requests()).map((r) => `${r.method} ${r.path}`);
    expect(paths).toEqual([
      "POST /v1/apps/demo-app/certificates/acme",
      "GET /v1/apps/demo-app/certificates/%2A.wild.example.com",
      "POST /v1/apps/demo-app/certificates/%2A.wild.example.com/check",
      "DELETE /v1/apps/demo-app/certificates/%2A.wild.example.com/acme",
      "DELETE /v1/apps/demo-app/certificates/%2A.wild.example.com",
    ]);
  });

  it("listAll follows next_cursor across several pages", async () => {
    const hosts = Array.from({ length: 7 }, (_, i) => `page${i}.paged.example.com`);
    for (const host of hosts) await client.certificates.requestAcme(APP, host);
    await h.control.requests.clear();
    const seen: string[] = [];
    for await (const entry of client.certificates.listAll(APP, { filter: "paged.example.com", limit: 2 }))
      seen.push(entry.hostname);
    expect(seen.sort()).toEqual([...hosts].sort());
    expect((await h.requests()).filter((r) => r.method === "GET")).toHaveLength(4);
    const first = await client.certificates.list(APP, { filter: "paged", limit: 3 });
    expect(first.certificates).toHaveLength(3);
    expect(first.total_count).toBe(7);
    const second = await client.certificates.list(APP, {
      filter: "paged",
      limit: 3,
      cursor: first.next_cursor ?? "",
    });
    expect(second.certificates[0]?.hostname).not.toBe(first.certificates[0]?.hostname);
  });

  it("an ACME request is not repeated after a dropped connection; the check, which only reads, is", async () => {
    await h.control.faults.add({
      method: "POST",
      path: "/v1/apps/*/certificates/**",
      kind: "drop-after",
      times: 2,
    });
    await expect(client.certificates.requestAcme(APP, "drop.example.com")).rejects.toBeInstanceOf(
      AmbiguousRequestError,
    );
    // The second drop hits the check, which is sent again and answers.
    await expect(client.certificates.check(APP, "drop.example.com")).resolves.toMatchObject({
      hostname: "drop.example.com",
      acme_requested: true,
    });
    const posts = (await h.requests()).filter((r) => r.method === "POST").map((r) => r.path);
    expect(posts).toEqual([
      `/v1/apps/${APP}/certificates/acme`,
      `/v1/apps/${APP}/certificates/drop.example.com/check`,
      `/v1/apps/${APP}/certificates/drop.example.com/check`,
    ]);
  });

  it("GET of a certificate is retried after an injected 503", async () => {
    await client.certificates.requestAcme(APP, "busy.example.com");
    await h.control.faults.add({
      method: "GET",
      path: "/v1/apps/*/certificates/*",
      kind: "status",
      status: 503,
      retryAfterSeconds: 0,
      times: 2,
    });
    await expect(client.certificates.get(APP, "busy.example.com")).resolves.toMatchObject({
      hostname: "busy.example.com",
    });
  });

  it("waitUntilActive checks until the hostname is active and returns that check", async () => {
    const host = "wait.example.com";
    const details = await client.certificates.requestAcme(APP, host);
    const seen: number[] = [];
    const waiting = client.certificates.waitUntilActive(APP, host, { timeoutMs: 20_000, intervalMs: 50 });
    // Point DNS at the app once the wait has started checking.
    await new Promise((resolve) => setTimeout(resolve, 200));
    seen.push((await h.requests()).filter((r) => r.path.endsWith(`/${host}/check`)).length);
    await h.control.dns.set([{ type: "A", name: host, value: details.dns_requirements.a[0] ?? "" }]);
    const active = await waiting;
    expect(active).toMatchObject({ hostname: host, status: "active" });
    expect(seen[0]).toBeGreaterThan(1);
  });

  it("waitUntilActive times out with the last status seen, and stops on abort", async () => {
    const host = "never.example.com";
    await client.certificates.requestAcme(APP, host);
    const err = await client.certificates
      .waitUntilActive(APP, host, { timeoutMs: 300, intervalMs: 50 })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TimeoutError);
    expect((err as TimeoutError).message).toMatch(
      /certificate of never\.example\.com \(app demo-app\) did not become active within 300 ms; last status seen: "pending_validation"/,
    );
    expect((err as TimeoutError).lastSeen).toMatchObject({ hostname: host, status: "pending_validation" });
    const ac = new AbortController();
    const aborted = client.certificates.waitUntilActive(APP, host, { signal: ac.signal, intervalMs: 50 });
    ac.abort(new Error("stop waiting"));
    await expect(aborted).rejects.toThrow("stop waiting");
  });
});
