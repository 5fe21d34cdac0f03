/**
 * (b) The fixtures served over real HTTP (127.0.0.1 and the task unix socket) to the sdk clients,
 * the provider's lookups and its resource operations: every method answers in the one normal
 * form, and the provider's outputs hold `null`, never `undefined` (the engine's protobuf Struct
 * rejects undefined).
 */
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as runtime from "../../../provider/kinds/runtime-entry";
import * as lookups from "../../../provider/lookups";
import { PlatformClient, TaskClient } from "../../../sdk";
import {
  CertificateCheckResponseSchema,
  CertificateDetailsSchema,
  CertificateListResponseSchema,
  ExtendVolumeResponseSchema,
  OnDemandSnapshotResponseSchema,
  RotatePasswordResponseSchema,
  SnapshotListSchema,
  TaskListSchema,
  TaskSchema,
  VolumeListSchema,
  VolumeSchema,
} from "../../../sdk/schemas";
import { configureRuntime, withProvider } from "../provider/helpers";
import { type FixtureServer, startFixtureServer } from "./fixture-server";
import { FIXTURES, fixture, undefinedPaths } from "./fixtures";

const APP = "my-app";
const VOL = "vol_4y1p2k7mwd0q9v6r";
const HOST = "www.example.com";

let server: FixtureServer;
let client: PlatformClient;
let tasks: TaskClient;

beforeAll(async () => {
  server = await startFixtureServer();
  client = new PlatformClient({ baseUrl: server.url, token: server.token, maxRetries: 0 });
  tasks = new TaskClient({ socketPath: server.socketPath });
});
afterAll(async () => {
  runtime.resetCredentials();
  await client?.close();
  await tasks?.close();
  await server?.close();
});

interface Call {
  /** Calls the client method that hits the endpoint. */
  call: () => Promise<unknown>;
  /** What the method returns, from the parsed body. */
  expected: (body: unknown) => unknown;
}

const whole = (schema: { parse(v: unknown): unknown }) => (body: unknown) => schema.parse(body);

/** For each endpoint with a fixture: the sdk method that calls it. */
const CALLS: Record<string, Call> = {
  "GET /v1/apps/{app_name}/volumes": {
    call: () => client.volumes.list(APP),
    expected: whole(VolumeListSchema),
  },
  "POST /v1/apps/{app_name}/volumes": {
    call: () => client.volumes.create(APP, { name: "data", region: "ord" }),
    expected: whole(VolumeSchema),
  },
  "GET /v1/apps/{app_name}/volumes/{volume_id}": {
    call: () => client.volumes.get(APP, VOL),
    expected: whole(VolumeSchema),
  },
  "PUT /v1/apps/{app_name}/volumes/{volume_id}": {
    call: () => client.volumes.update(APP, VOL, { snapshot_retention: 14, auto_backup_enabled: false }),
    expected: whole(VolumeSchema),
  },
  "DELETE /v1/apps/{app_name}/volumes/{volume_id}": {
    call: () => client.volumes.delete(APP, VOL),
    expected: whole(VolumeSchema),
  },
  "PUT /v1/apps/{app_name}/volumes/{volume_id}/extend": {
    call: () => client.volumes.extend(APP, VOL, 10),
    expected: whole(ExtendVolumeResponseSchema),
  },
  "GET /v1/apps/{app_name}/volumes/{volume_id}/snapshots": {
    call: () => client.volumes.listSnapshots(APP, VOL),
    expected: whole(SnapshotListSchema),
  },
  "POST /v1/apps/{app_name}/volumes/{volume_id}/snapshots": {
    call: () => client.volumes.createSnapshot(APP, VOL),
    expected: (body) => OnDemandSnapshotResponseSchema.parse(body).Msg.backup,
  },
  "GET /v1/apps/{app_name}/certificates": {
    call: () => client.certificates.list(APP, { limit: 2 }),
    expected: whole(CertificateListResponseSchema),
  },
  "POST /v1/apps/{app_name}/certificates/acme": {
    call: () => client.certificates.requestAcme(APP, HOST),
    expected: whole(CertificateDetailsSchema),
  },
  "POST /v1/apps/{app_name}/certificates/custom": {
    call: () =>
      client.certificates.importCustom(APP, { hostname: HOST, fullchain: "pem", private_key: "pem" }),
    expected: whole(CertificateDetailsSchema),
  },
  "GET /v1/apps/{app_name}/certificates/{hostname}": {
    call: () => client.certificates.get(APP, HOST),
    expected: whole(CertificateDetailsSchema),
  },
  "POST /v1/apps/{app_name}/certificates/{hostname}/check": {
    call: () => client.certificates.check(APP, HOST),
    expected: whole(CertificateCheckResponseSchema),
  },
  "DELETE /v1/apps/{app_name}/certificates/{hostname}/acme": {
    call: () => client.certificates.deleteAcme(APP, HOST),
    expected: whole(CertificateDetailsSchema),
  },
  "DELETE /v1/apps/{app_name}/certificates/{hostname}/custom": {
    call: () => client.certificates.deleteCustom(APP, HOST),
    expected: whole(CertificateDetailsSchema),
  },
  "POST /v1/postgres/{postgres_cluster_id}/users/{username}/rotate_password": {
    call: () => client.postgres.rotatePassword("demo-pg", "app_user"),
    expected: (body) => RotatePasswordResponseSchema.parse(body).data,
  },
  "GET /v1/tasks": { call: () => tasks.list(), expected: (body) => TaskListSchema.parse(body).tasks },
  "GET /v1/tasks/{name}": { call: () => tasks.get("nightly-job"), expected: whole(TaskSchema) },
  "PUT /v1/tasks/{name}": { call: () => tasks.upsert("nightly-job", 60), expected: whole(TaskSchema) },
};

/** Outputs as the engine would carry them: a protobuf Struct, which throws on undefined. */
function throughStruct(outs: Record<string, unknown>): Record<string, unknown> {
  return Struct.fromJavaScript(outs as never).toJavaScript();
}

describe("sdk clients against the fixtures over HTTP", () => {
  it.each(FIXTURES.map((f) => [f.name, f.endpoint]))(
    "%s: the client method of %s answers in the normal form",
    async (name, endpoint) => {
      const c = CALLS[endpoint];
      if (!c) throw new Error(`no client call for ${endpoint}`);
      server.serve(name);
      const result = await c.call();
      expect(undefinedPaths(result)).toEqual([]);
      expect(result).toEqual(c.expected(fixture(name)));
      const method = endpoint.split(" ")[0];
      expect(server.requests.filter((r) => r.startsWith(`${method} `)).length).toBeGreaterThan(0);
    },
  );

  it("listSnapshots returns retention_days null for entries that carry null or nothing", async () => {
    server.serve("snapshot-list.real-world.json");
    const list = await client.volumes.listSnapshots(APP, VOL);
    expect(list.map((s) => s.retention_days)).toEqual([null, null, 14]);
  });

  it("waitForSnapshot finds a snapshot whose retention_days is null", async () => {
    server.serve("snapshot-list.real-world.json");
    const found = await client.volumes.waitForSnapshot(APP, VOL, "vs_MgLAggLZkYx89fLy", { timeoutMs: 5_000 });
    expect(found.retention_days).toBeNull();
  });

  it("check answers with null DNS records exactly when they are missing", async () => {
    server.serve("certificate-check.missing-dns.json");
    const checked = await client.certificates.check(APP, HOST);
    expect(checked.dns_records).toMatchObject({
      soa: null,
      acme_challenge_cname: null,
      ownership_txt: null,
      a: [],
    });
  });

  it("listAll walks a page without total_count or next_cursor", async () => {
    server.serve("certificate-list.omitempty.json");
    const all = [];
    for await (const entry of client.certificates.listAll(APP)) all.push(entry);
    expect(all.map((e) => [e.hostname, e.dns_provider])).toEqual([["*.example.com", null]]);
  });

  it("waitUntil returns a volume whose optional members were left out", async () => {
    server.serve("volume-extend.sparse.json", "volume-get.nulls.json");
    const volume = await client.volumes.waitUntil(APP, VOL, "created", { timeoutMs: 5_000 });
    expect(volume).toMatchObject({ fstype: "", blocks: 0, host_dedication_key: "", attached_alloc_id: null });
  });
});

describe("provider lookups against the fixtures", () => {
  const creds = () => ({ apiUrl: server.url, apiToken: server.token });

  it("listSnapshots gives retentionDays null, never undefined", async () => {
    server.serve("snapshot-list.real-world.json");
    const list = await lookups.listSnapshots({ app: APP, volumeId: VOL, ...creds() });
    expect(list.map((s) => s.retentionDays)).toEqual([null, null, 14]);
    expect(undefinedPaths(list)).toEqual([]);
  });

  it("getVolume and listVolumes give the normal form of omitted members", async () => {
    server.serve("volume-get.nulls.json");
    const volume = await lookups.getVolume({ app: APP, volumeId: VOL, ...creds() });
    expect(volume).toMatchObject({ attachedMachineId: null, attachedAllocId: null, blocks: 0, fstype: "" });
    server.serve("volume-list.real-world.json");
    const all = await lookups.listVolumes({ app: APP, ...creds() });
    expect(all[1]).toMatchObject({ hostDedicationKey: "", blocksAvail: 0, attachedMachineId: null });
    expect(undefinedPaths([volume, all])).toEqual([]);
  });

  it("getCertificate gives null for omitted timestamps, issuer, certificate authority and dnsProvider", async () => {
    server.serve("certificate-get.omitempty.json");
    const info = await lookups.getCertificate({ app: APP, hostname: "*.example.com", ...creds() });
    expect(info).toMatchObject({
      dnsProvider: null,
      rateLimitedUntil: "2024-05-01T13:00:00Z",
      validationErrors: [],
      certificates: [
        {
          source: "platform",
          createdAt: null,
          expiresAt: null,
          issuer: null,
          issued: [
            { type: "ecdsa", certificateAuthority: null },
            { type: "rsa", certificateAuthority: null },
          ],
        },
        { source: "custom", issuer: null, issued: [] },
      ],
    });
    expect(undefinedPaths(info)).toEqual([]);
  });

  it("checkCertificate gives null DNS records, and dnsRecords null when the answer has none", async () => {
    server.serve("certificate-check.missing-dns.json");
    const checked = await lookups.checkCertificate({ app: APP, hostname: HOST, ...creds() });
    expect(checked.dnsRecords).toEqual({
      a: [],
      aaaa: [],
      cname: [],
      resolvedAddresses: [],
      soa: null,
      acmeChallengeCname: null,
      ownershipTxt: null,
    });
    server.serve("certificate-check.no-dns-records.json");
    const bare = await lookups.checkCertificate({ app: APP, hostname: HOST, ...creds() });
    expect(bare.dnsRecords).toBeNull();
    expect(undefinedPaths([checked, bare])).toEqual([]);
  });

  it("listCertificates gives dnsProvider null for an entry without one", async () => {
    server.serve("certificate-list.omitempty.json");
    const all = await lookups.listCertificates({ app: APP, ...creds() });
    expect(all).toEqual([expect.objectContaining({ hostname: "*.example.com", dnsProvider: null })]);
  });
});

describe("provider resources against the fixtures: outputs hold null, never undefined", () => {
  beforeAll(async () => {
    await configureRuntime(server.url, server.token);
  });

  it("a VolumeSnapshot of a snapshot listed without retention_days has retentionDays null", async () => {
    server.serve("snapshot-create.protojson.json", "snapshot-list.real-world.json");
    const { id, outs } = await runtime.volumeSnapshot.create(withProvider({ app: APP, volumeId: VOL }));
    expect(id).toBe("vs_MgLAggLZkYx89fLy");
    expect(outs).toMatchObject({ listed: true, retentionDays: null, state: "prepare", size: 28472368 });
    expect(throughStruct(outs)).toMatchObject({ retentionDays: null });
    const read = await runtime.volumeSnapshot.read(id, outs);
    expect(read.props).toMatchObject({ retentionDays: null });
    throughStruct(read.props);
    // A listed snapshot is not looked up again on update: retentionDays stays null, not 0.
    const updated = await runtime.volumeSnapshot.update(id, outs, { ...outs, waitTimeoutSeconds: 30 });
    expect(updated.outs).toMatchObject({ retentionDays: null });
  });

  it("a VolumeSnapshot whose backup leaves out state and type has them null", async () => {
    server.serve("snapshot-list.real-world.json");
    const props = {
      app: APP,
      volumeId: VOL,
      backupId: "bk_7Rk2mQ9pX4vL1nZs",
      snapshotId: "vs_9aZt4wE8rUy1iOp2",
      listed: true,
    };
    const read = await runtime.volumeSnapshot.read("vs_9aZt4wE8rUy1iOp2", props);
    expect(read.props).toMatchObject({ state: null, backupType: null, retentionDays: 14 });
    throughStruct(read.props);
  });

  it("a Volume read from a sparse answer has null attachments, 0 blocks and keeps the fstype it knew", async () => {
    server.serve("volume-get.nulls.json");
    const read = await runtime.volume.read(VOL, { app: APP, volumeId: VOL, fstype: "ext4", name: "data" });
    expect(read.props).toMatchObject({
      attachedMachineId: null,
      attachedAllocId: null,
      blocks: 0,
      hostDedicationKey: "",
      fstype: "ext4",
    });
    throughStruct(read.props);
  });

  it("an AcmeCertificate created from an answer without dns_provider, rate_limited_until or validation_errors", async () => {
    server.serve("certificate-acme.omitempty.json");
    const { id, outs } = await runtime.acmeCertificate.create(withProvider({ app: APP, hostname: HOST }));
    expect(id).toBe(HOST);
    expect(outs).toMatchObject({
      dnsProvider: null,
      rateLimitedUntil: null,
      validationErrors: [],
      certificates: [],
    });
    throughStruct(outs);
  });

  it("an AcmeCertificate that waits through a check answer with missing DNS records", async () => {
    server.serve("certificate-acme.spec.json", "certificate-check.spec.json");
    const { outs } = await runtime.acmeCertificate.create(
      withProvider({ app: APP, hostname: HOST, waitForActive: true, waitTimeoutSeconds: 5 }),
    );
    expect(outs).toMatchObject({ status: "active", dnsProvider: "cloudflare" });
    throughStruct(outs);
  });

  it("a certificate read from an answer with omitted timestamps, issuer and authority", async () => {
    server.serve("certificate-get.omitempty.json");
    for (const resource of [runtime.acmeCertificate, runtime.customCertificate]) {
      const read = await resource.read("*.example.com", {
        app: APP,
        hostname: "*.example.com",
        dnsProvider: "cloudflare",
      });
      expect(read.props).toMatchObject({
        // The platform left dns_provider out: the one known before is kept.
        dnsProvider: "cloudflare",
        rateLimitedUntil: "2024-05-01T13:00:00Z",
        certificates: [
          { createdAt: null, expiresAt: null, issuer: null, issued: [{ certificateAuthority: null }, {}] },
          { issuer: null, issued: [] },
        ],
      });
      throughStruct(read.props);
    }
  });

  it("a pending custom certificate's wait timeout names the missing DNS records without crashing", async () => {
    server.serve("certificate-custom.spec.json", "certificate-check.missing-dns.json");
    const err = await runtime.customCertificate
      .create(
        withProvider({
          app: APP,
          hostname: HOST,
          fullchain: "pem",
          privateKey: "pem",
          waitForActive: true,
          waitTimeoutSeconds: 1,
        }),
      )
      .then(
        () => undefined,
        (e: unknown) => e as Error & { id?: string; properties?: Record<string, unknown> },
      );
    expect(err?.message).toMatch(/did not become active/);
    expect(err?.message).toMatch(/"soa":null/);
    expect(err?.id).toBe(HOST);
    throughStruct(err?.properties ?? {});
  });
});
