import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  checkCertificate,
  getCertificate,
  getVolume,
  listCertificates,
  listSnapshots,
  listVolumes,
} from "../../../provider/lookups";
import { invokeLookup } from "../../../provider/plugin/functions";
import { type ProviderHarness, startHarness } from "./helpers";

const APP = "demo-app";
let h: ProviderHarness;
let creds: { apiUrl: string; apiToken: string };
let volumeId: string;

beforeAll(async () => {
  h = await startHarness({ snapshotListDelayMs: 0 });
  creds = { apiUrl: h.emu.url, apiToken: h.emu.token };
  volumeId = (
    await h.api("POST", `/v1/apps/${APP}/volumes`, { name: "looked-up", region: "ord", size_gb: 4 })
  ).body.id;
  await h.api("POST", `/v1/apps/${APP}/volumes/${volumeId}/snapshots`);
  for (let i = 0; i < 30; i++) {
    await h.api("POST", `/v1/apps/${APP}/certificates/acme`, {
      hostname: `host${String(i).padStart(2, "0")}.example.com`,
    });
  }
  await h.api("POST", `/v1/apps/${APP}/certificates/acme`, { hostname: "*.wild.example.com" });
});
afterAll(async () => {
  await h?.close();
});

describe("lookups", () => {
  it("getVolume and listVolumes return camelCase volumes", async () => {
    const v = await getVolume({ app: APP, volumeId, ...creds });
    expect(v).toMatchObject({ volumeId, name: "looked-up", sizeGb: 4, region: "ord", snapshotRetention: 5 });
    expect(v).not.toHaveProperty("needsRestart");
    expect((await listVolumes({ app: APP, ...creds })).map((x) => x.volumeId)).toContain(volumeId);
  });

  it("listSnapshots returns the volume's snapshots", async () => {
    const snaps = await listSnapshots({ app: APP, volumeId, ...creds });
    expect(snaps).toHaveLength(1);
    expect(snaps[0]).toMatchObject({ snapshotId: expect.stringMatching(/^vs_/), digest: expect.any(String) });
  });

  it("listCertificates follows every page", async () => {
    const all = await listCertificates({ app: APP, ...creds });
    expect(all).toHaveLength(31);
    expect(all[0]).toMatchObject({ acmeRequested: true, hasCustomCertificate: false });
    expect(await listCertificates({ app: APP, filter: "host2", ...creds })).toHaveLength(10);
  });

  it("getCertificate and checkCertificate work for a wildcard hostname, the check with dnsRecords", async () => {
    const cert = await getCertificate({ app: APP, hostname: "*.wild.example.com", ...creds });
    expect(cert).toMatchObject({ hostname: "*.wild.example.com", acmeRequested: true });
    const checked = await checkCertificate({ app: APP, hostname: "*.wild.example.com", ...creds });
    expect(checked.dnsRecords).toMatchObject({ a: expect.any(Array), ownershipTxt: expect.any(String) });
    expect(checked.validationErrors).not.toEqual([]);
  });

  it("falls back to PLATFORM_API_URL / PLATFORM_API_TOKEN and says how to set them when missing", async () => {
    await expect(getVolume({ app: APP, volumeId })).rejects.toThrow(
      /pulumi config set --secret platform:apiToken/,
    );
    process.env.PLATFORM_API_URL = creds.apiUrl;
    process.env.PLATFORM_API_TOKEN = creds.apiToken;
    try {
      expect((await getVolume({ app: APP, volumeId })).volumeId).toBe(volumeId);
    } finally {
      delete process.env.PLATFORM_API_URL;
      delete process.env.PLATFORM_API_TOKEN;
    }
  });

  it("a refused token says where to set a valid one, once, and never shows the token", async () => {
    const err = await getVolume({
      app: APP,
      volumeId,
      apiUrl: creds.apiUrl,
      apiToken: "wrong-token-value",
    }).catch((e: Error) => e);
    expect((err as Error).message).toMatch(/failed with 401/);
    expect((err as Error).message.split("pulumi config set --secret platform:apiToken").length - 1).toBe(1);
    expect((err as Error).message).not.toContain("wrong-token-value");
  });
});

describe("the plugin's functions answer as Pulumi's providers do", () => {
  it("a single lookup answers its fields (getVolume(...).name), a list under items", async () => {
    const one = await invokeLookup("getVolume", { app: APP, volumeId }, creds);
    expect(one.failures).toEqual([]);
    expect(one.answer).toMatchObject({ volumeId, name: "looked-up", sizeGb: 4 });
    expect(one.answer).not.toHaveProperty("result");
    const cert = await invokeLookup("checkCertificate", { app: APP, hostname: "host00.example.com" }, creds);
    expect(cert.answer).toMatchObject({ hostname: "host00.example.com", app: APP });
    const list = await invokeLookup("listVolumes", { app: APP }, creds);
    expect(Object.keys(list.answer)).toEqual(["items"]);
    expect((list.answer.items as { volumeId: string }[]).map((v) => v.volumeId)).toContain(volumeId);
  });

  it("a missing argument is a failure naming it, with no request", async () => {
    const before = (await h.control.requests.list()).length;
    expect(await invokeLookup("getVolume", { app: APP }, creds)).toEqual({
      answer: {},
      failures: [{ property: "volumeId", reason: "volumeId is required: a non-empty string" }],
    });
    expect((await h.control.requests.list()).length).toBe(before);
  });
});
