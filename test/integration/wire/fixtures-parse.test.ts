/**
 * (a) Every hand-written fixture parses with the sdk's schema of its endpoint, into the one
 * normal form: members the platform may omit or null are `null` (or `[]`, `0`, `""` where the
 * sdk documents it), never `undefined`.
 */
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import {
  CertificateCheckResponseSchema,
  CertificateDetailsSchema,
  CertificateListResponseSchema,
  CreateVolumeRequestSchema,
  ExtendVolumeResponseSchema,
  OnDemandSnapshotResponseSchema,
  RotatePasswordResponseSchema,
  SnapshotListSchema,
  TaskListSchema,
  TaskSchema,
  UpdateVolumeRequestSchema,
  VolumeListSchema,
  VolumeSchema,
} from "../../../sdk/schemas";
import { FIXTURES, fixture, fixtureFiles, undefinedPaths } from "./fixtures";

/** The sdk schema each endpoint's 2xx body is parsed with. */
const SCHEMA_OF: Record<string, z.ZodType> = {
  "GET /v1/apps/{app_name}/volumes": VolumeListSchema,
  "POST /v1/apps/{app_name}/volumes": VolumeSchema,
  "GET /v1/apps/{app_name}/volumes/{volume_id}": VolumeSchema,
  "PUT /v1/apps/{app_name}/volumes/{volume_id}": VolumeSchema,
  "DELETE /v1/apps/{app_name}/volumes/{volume_id}": VolumeSchema,
  "PUT /v1/apps/{app_name}/volumes/{volume_id}/extend": ExtendVolumeResponseSchema,
  "GET /v1/apps/{app_name}/volumes/{volume_id}/snapshots": SnapshotListSchema,
  "POST /v1/apps/{app_name}/volumes/{volume_id}/snapshots": OnDemandSnapshotResponseSchema,
  "GET /v1/apps/{app_name}/certificates": CertificateListResponseSchema,
  "POST /v1/apps/{app_name}/certificates/acme": CertificateDetailsSchema,
  "POST /v1/apps/{app_name}/certificates/custom": CertificateDetailsSchema,
  "GET /v1/apps/{app_name}/certificates/{hostname}": CertificateDetailsSchema,
  "POST /v1/apps/{app_name}/certificates/{hostname}/check": CertificateCheckResponseSchema,
  "DELETE /v1/apps/{app_name}/certificates/{hostname}/acme": CertificateDetailsSchema,
  "DELETE /v1/apps/{app_name}/certificates/{hostname}/custom": CertificateDetailsSchema,
  "POST /v1/postgres/{postgres_cluster_id}/users/{username}/rotate_password": RotatePasswordResponseSchema,
  "GET /v1/tasks": TaskListSchema,
  "GET /v1/tasks/{name}": TaskSchema,
  "PUT /v1/tasks/{name}": TaskSchema,
};

// biome-ignore lint/suspicious/noExplicitAny: parsed fixtures are inspected member by member
function parse(name: string): any {
  const info = FIXTURES.find((f) => f.name === name);
  if (!info) throw new Error(`${name} is not in manifest.json`);
  const schema = SCHEMA_OF[info.endpoint];
  if (!schema) throw new Error(`no sdk schema for ${info.endpoint}`);
  return schema.parse(fixture(name));
}

describe("wire fixtures", () => {
  it("every fixture file is in the manifest with an endpoint and a source", () => {
    expect(FIXTURES.map((f) => f.name).sort()).toEqual(fixtureFiles().sort());
    for (const f of FIXTURES) {
      expect(SCHEMA_OF[f.endpoint], `${f.name}: ${f.endpoint}`).toBeDefined();
      expect(f.source.length, f.name).toBeGreaterThan(10);
    }
  });

  it.each(FIXTURES.map((f) => f.name))("the sdk accepts %s and leaves no member undefined", (name) => {
    expect(undefinedPaths(parse(name))).toEqual([]);
  });
});

describe("volumes: the sdk accepts what the platform sends", () => {
  it("accepts a volume without attachment ids, block counts, fstype or host_dedication_key", () => {
    const [, sparse] = parse("volume-list.real-world.json");
    expect(sparse).toMatchObject({
      id: "vol_m2n4b6v8c0x1z3a5",
      attached_machine_id: null,
      attached_alloc_id: null,
      blocks: 0,
      block_size: 0,
      blocks_free: 0,
      blocks_avail: 0,
      fstype: "",
      host_dedication_key: "",
      encrypted: false,
      auto_backup_enabled: false,
    });
  });

  it("accepts volume block counts, fstype and host_dedication_key sent as null (parsed: 0 and empty strings)", () => {
    expect(parse("volume-get.nulls.json")).toMatchObject({
      blocks: 0,
      block_size: 0,
      blocks_free: 0,
      blocks_avail: 0,
      fstype: "",
      host_dedication_key: "",
      attached_machine_id: null,
    });
  });

  it("keeps the values the platform did send, extra members tolerated", () => {
    const [real] = parse("volume-list.real-world.json");
    expect(real.created_at).toBe("2025-09-13T09:27:18.803Z");
    expect(real.fstype).toBe("ext4");
    expect(parse("volume-get.attached.json")).toMatchObject({
      attached_machine_id: "3d8d9014b12e89",
      blocks_avail: 730163,
      host_dedication_key: "hd-7f3a",
    });
  });

  it("accepts a volume list sent as null (parsed: [])", () => {
    expect(parse("volume-list.null.json")).toEqual([]);
  });

  it("accepts an extend answer whose volume leaves out what the platform may omit", () => {
    expect(parse("volume-extend.sparse.json")).toMatchObject({
      needs_restart: false,
      volume: { size_gb: 10, fstype: "", blocks: 0, attached_machine_id: null },
    });
  });

  it("keeps timestamps exactly as sent, with fractions and offsets", () => {
    expect(parse("volume-create.restoring-sparse.json").created_at).toBe("2024-05-01T14:00:00+02:00");
    expect(parse("volume-get.nulls.json").created_at).toBe("2024-05-01T12:00:00.5-07:00");
    expect(parse("volume-create.fresh.json").created_at).toBe("2024-05-01T12:00:00.123456Z");
  });
});

describe("snapshots: the sdk accepts what the platform sends", () => {
  it("accepts a snapshot list entry whose retention_days is null", () => {
    const [first] = parse("snapshot-list.real-world.json");
    expect(first.retention_days).toBeNull();
  });

  it("accepts a snapshot list entry without retention_days (parsed: null)", () => {
    const [, second, third] = parse("snapshot-list.real-world.json");
    expect(second).toHaveProperty("retention_days", null);
    expect(third.retention_days).toBe(14);
  });

  it("accepts a backup without message, updated_at and finished_at (parsed: empty message, null)", () => {
    const { backup } = parse("snapshot-create.protojson.json").Msg;
    expect(backup).toMatchObject({
      id: "bk_7Rk2mQ9pX4vL1nZs",
      graph_id: "vs_MgLAggLZkYx89fLy",
      message: "",
      updated_at: null,
      finished_at: null,
      created_at: "2024-05-01T12:00:00.123456789Z",
    });
  });
});

describe("certificates: the sdk accepts what the platform sends", () => {
  it("accepts check dns_records whose soa, acme_challenge_cname and ownership_txt are null", () => {
    const { dns_records } = parse("certificate-check.missing-dns.json");
    expect(dns_records).toEqual({
      a: [],
      aaaa: [],
      cname: [],
      resolved_addresses: [],
      soa: null,
      acme_challenge_cname: null,
      ownership_txt: null,
    });
  });

  it("accepts a check answer without dns_records (parsed: null)", () => {
    expect(parse("certificate-check.no-dns-records.json").dns_records).toBeNull();
  });

  it("accepts certificate entries whose created_at and expires_at are null or omitted", () => {
    const [platform, custom] = parse("certificate-get.omitempty.json").certificates;
    expect(platform).toMatchObject({ created_at: null, expires_at: null });
    expect(custom).toMatchObject({ created_at: "2024-05-01T12:00:00+02:00", issued: [] });
    const [pending] = parse("certificate-check.no-dns-records.json").certificates;
    expect(pending).toMatchObject({ created_at: null, expires_at: null });
  });

  it("accepts certificate entries without issuer (parsed: null)", () => {
    const [platform, custom] = parse("certificate-get.omitempty.json").certificates;
    expect(platform.issuer).toBeNull();
    expect(custom.issuer).toBeNull();
  });

  it("accepts issued items without certificate_authority (parsed: null)", () => {
    const [platform] = parse("certificate-get.omitempty.json").certificates;
    expect(platform.issued).toEqual([
      { type: "ecdsa", expires_at: "2024-07-30T12:05:00.000000Z", certificate_authority: null },
      { type: "rsa", expires_at: "2024-07-30T12:05:00-04:00", certificate_authority: null },
    ]);
  });

  it("accepts details without validation_errors (parsed: [])", () => {
    expect(parse("certificate-acme.omitempty.json").validation_errors).toEqual([]);
    expect(parse("certificate-get.omitempty.json").validation_errors).toEqual([]);
  });

  it("keeps validation_errors elements as sent", () => {
    const [error] = parse("certificate-check.missing-dns.json").validation_errors;
    expect(error).toMatchObject({ code: null, message: "no A, AAAA or CNAME record points at the app" });
  });

  it("accepts details without dns_provider and rate_limited_until, certificates null (parsed: null, [])", () => {
    expect(parse("certificate-acme.omitempty.json")).toMatchObject({
      dns_provider: null,
      rate_limited_until: null,
      certificates: [],
    });
  });

  it("keeps a rate_limited_until the platform sends", () => {
    expect(parse("certificate-get.omitempty.json").rate_limited_until).toBe("2024-05-01T13:00:00Z");
  });

  it("accepts dns_requirements address lists sent as null (parsed: [])", () => {
    expect(parse("certificate-get.omitempty.json").dns_requirements).toMatchObject({ a: [], aaaa: [] });
  });

  it("accepts the delete-kind answers without dns_provider and rate_limited_until", () => {
    for (const name of ["certificate-delete-acme.spec.json", "certificate-delete-custom.omitempty.json"]) {
      expect(parse(name), name).toMatchObject({ dns_provider: null, rate_limited_until: null });
    }
    const [platform] = parse("certificate-delete-custom.omitempty.json").certificates;
    expect(platform).toMatchObject({ created_at: null, expires_at: null, issuer: null });
    expect(platform.issued[0].certificate_authority).toBeNull();
  });

  it("accepts a certificate list entry without dns_provider (parsed: null)", () => {
    const page = parse("certificate-list.omitempty.json");
    expect(page.certificates[0].dns_provider).toBeNull();
    expect(page.next_cursor).toBeNull();
    expect(page.total_count).toBe(1);
  });

  it("accepts a certificate list without total_count (parsed: 0)", () => {
    expect(parse("certificate-list.empty.json")).toEqual({
      certificates: [],
      total_count: 0,
      next_cursor: null,
    });
    expect(parse("certificate-list.null.json")).toEqual({
      certificates: [],
      total_count: 0,
      next_cursor: null,
    });
  });
});

describe("postgres and tasks: the sdk accepts what the platform sends", () => {
  it("tolerates unknown members beside and inside data", () => {
    expect(parse("postgres-rotate.extra-members.json").data).toMatchObject({ username: "app_user" });
  });

  it("accepts a task list sent as null (parsed: [])", () => {
    expect(parse("tasks-list.null.json")).toEqual({ tasks: [] });
  });

  it("accepts nanosecond task timestamps with offsets as sent", () => {
    expect(parse("task.fractional.json").expires_at).toBe("2024-05-01T12:30:00.123456789+00:00");
  });
});

describe("liberal, not blind", () => {
  it("still rejects a loosened member of the wrong type", () => {
    const snapshots = fixture("snapshot-list.spec.json");
    snapshots[0].retention_days = "5";
    expect(SnapshotListSchema.safeParse(snapshots).success).toBe(false);
    const check = fixture("certificate-check.spec.json");
    check.dns_records.soa = 5;
    expect(CertificateCheckResponseSchema.safeParse(check).success).toBe(false);
    const list = fixture("certificate-list.spec.json");
    list.total_count = "3";
    expect(CertificateListResponseSchema.safeParse(list).success).toBe(false);
  });

  it("still rejects an answer without the members the sdk cannot work without", () => {
    const volume = fixture("volume-get.attached.json");
    delete volume.id;
    expect(VolumeSchema.safeParse(volume).success).toBe(false);
    const created = fixture("snapshot-create.spec.json");
    delete created.Msg.backup.graph_id;
    expect(OnDemandSnapshotResponseSchema.safeParse(created).success).toBe(false);
    const details = fixture("certificate-get.active.json");
    delete details.dns_requirements;
    expect(CertificateDetailsSchema.safeParse(details).success).toBe(false);
  });

  it("request schemas stay strict: null is not an absent request member", () => {
    expect(CreateVolumeRequestSchema.safeParse({ name: "data", encrypted: null }).success).toBe(false);
    expect(CreateVolumeRequestSchema.safeParse({ name: "data", region: "" }).success).toBe(false);
    expect(UpdateVolumeRequestSchema.safeParse({ snapshot_retention: null }).success).toBe(false);
  });
});
