/**
 * (c) The emulator's answers against the spec's field tables (./spec-fields.ts, written from
 * platform-api.md, not from our schemas), over raw HTTP. `full` answers carry every member the
 * spec lists, with the spec's type; `sparse` answers may leave out or null only the members the
 * real platform may (MAY_BE_ABSENT), everything present still has the spec's type, and the sdk's
 * schema accepts every answer of both modes.
 */
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import {
  CertificateCheckResponseSchema,
  CertificateDetailsSchema,
  CertificateListResponseSchema,
  ExtendVolumeResponseSchema,
  OnDemandSnapshotResponseSchema,
  RotatePasswordResponseSchema,
  SnapshotListSchema,
  SnapshotSchema,
  TaskListSchema,
  TaskSchema,
  VolumeListSchema,
  VolumeSchema,
} from "../../../sdk/schemas";
import { makeCert } from "../../support/certs";
import { useTestEmulator } from "../../support/emulator";
import {
  absentAllowed,
  CERTIFICATE_CHECK,
  CERTIFICATE_DETAILS,
  CERTIFICATE_DETAILS_DELETE_KIND,
  CERTIFICATE_LIST,
  EXTEND,
  MAY_BE_ABSENT,
  ON_DEMAND_SNAPSHOT,
  ROTATE_PASSWORD,
  SNAPSHOT,
  type SpecTable,
  specProblems,
  TASK,
  TASK_LIST,
  VOLUME,
} from "./spec-fields";

const APP = "demo-app";

const A = MAY_BE_ABSENT;
/** What each answer may leave out in sparse mode, and the sdk schema that parses it. */
const ALLOWED = {
  volume: absentAllowed(A.volume),
  extend: absentAllowed(A.volume.map((m) => `volume.${m}`)),
  snapshot: absentAllowed(A.snapshot),
  onDemandSnapshot: absentAllowed(A.onDemandSnapshot),
  details: absentAllowed(A.certificateDetails),
  check: absentAllowed(A.certificateDetails, A.dnsRecords),
  list: absentAllowed(A.certificateList),
  none: absentAllowed(),
  taskList: absentAllowed(A.taskList),
};

describe.each(["full", "sparse"] as const)("emulator answers in %s mode", (responses) => {
  const t = useTestEmulator({
    emulator: {
      timing: { restoreDelayMs: 0, snapshotListDelayMs: 0, warmAfterMs: 5000, coldAfterMs: 30000 },
      responses,
    },
  });
  const api = (method: string, path: string, body?: unknown) => t.api(method, path, body);
  const taskApi = (method: string, path: string, body?: unknown) => t.task(method, path, body);

  /**
   * The answer has the spec's members and types (in sparse mode minus what `allowed` lets it leave
   * out or null), and the sdk's schema accepts it.
   */
  function expectSpec(
    body: unknown,
    table: SpecTable,
    allowed: (path: string) => boolean,
    sdkSchema: z.ZodType,
  ): void {
    expect(specProblems(body, table, "", responses === "sparse" ? allowed : undefined)).toEqual([]);
    expect(sdkSchema.safeParse(body).error?.issues ?? []).toEqual([]);
  }

  /** A list answer: in sparse mode an empty list is null. */
  function listOf<T>(body: T[] | null): T[] {
    if (responses === "full") expect(Array.isArray(body)).toBe(true);
    return body ?? [];
  }

  describe("the emulator answers volume endpoints with the spec's members and types (spec 2.2-2.4, 4.3)", () => {
    let id: string;

    it("create, list, get, update and extend answer spec 2.2 volumes", async () => {
      const created = await api("POST", `/v1/apps/${APP}/volumes`, {
        name: "spec_vol",
        region: "iad",
        size_gb: 3,
      });
      expect(created.status).toBe(200);
      expectSpec(created.body, VOLUME, ALLOWED.volume, VolumeSchema);
      id = created.body.id;
      const list = await api("GET", `/v1/apps/${APP}/volumes`);
      expect(listOf(list.body).length).toBeGreaterThan(0);
      for (const v of list.body) expectSpec(v, VOLUME, ALLOWED.volume, VolumeSchema);
      VolumeListSchema.parse(list.body);
      expectSpec(
        (await api("GET", `/v1/apps/${APP}/volumes/${id}`)).body,
        VOLUME,
        ALLOWED.volume,
        VolumeSchema,
      );
      expectSpec(
        (await api("PUT", `/v1/apps/${APP}/volumes/${id}`, { snapshot_retention: 7 })).body,
        VOLUME,
        ALLOWED.volume,
        VolumeSchema,
      );
      const extended = await api("PUT", `/v1/apps/${APP}/volumes/${id}/extend`, { size_gb: 5 });
      expectSpec(extended.body, EXTEND, ALLOWED.extend, ExtendVolumeResponseSchema);
    });

    it("the on-demand snapshot answers spec 2.4 and the list spec 2.3 entries", async () => {
      const started = await api("POST", `/v1/apps/${APP}/volumes/${id}/snapshots`);
      expect(started.status).toBe(200);
      expectSpec(started.body, ON_DEMAND_SNAPSHOT, ALLOWED.onDemandSnapshot, OnDemandSnapshotResponseSchema);
      expect(started.body.Msg.backup).toMatchObject({ type: "BACKUP_TYPE_ON_DEMAND", state: "prepare" });
      let list: unknown[] = [];
      for (let i = 0; i < 50 && list.length === 0; i++) {
        const answer = await api("GET", `/v1/apps/${APP}/volumes/${id}/snapshots`);
        SnapshotListSchema.parse(answer.body);
        list = listOf(answer.body);
        if (list.length === 0) await new Promise((r) => setTimeout(r, 20));
      }
      expect(list.length).toBeGreaterThan(0);
      for (const s of list) expectSpec(s, SNAPSHOT, ALLOWED.snapshot, SnapshotSchema);
      // Sparse answers really are sparse: the snapshot's retention is left out.
      if (responses === "sparse") expect(list[0]).not.toHaveProperty("retention_days");
    });

    it("delete answers a spec 2.2 volume in state destroyed", async () => {
      const deleted = await api("DELETE", `/v1/apps/${APP}/volumes/${id}`);
      expectSpec(deleted.body, VOLUME, ALLOWED.volume, VolumeSchema);
      expect(deleted.body.state).toBe("destroyed");
    });
  });

  describe("the emulator answers certificate endpoints with the spec's members and types (spec 2.5, 2.6, 4.2)", () => {
    const host = "spec.example.com";

    it("ACME request, check, custom import and get answer spec 2.5 details", async () => {
      const acme = await api("POST", `/v1/apps/${APP}/certificates/acme`, { hostname: host });
      expect(acme.status).toBe(201);
      expectSpec(acme.body, CERTIFICATE_DETAILS, ALLOWED.details, CertificateDetailsSchema);
      if (responses === "sparse") expect(acme.body).not.toHaveProperty("dns_provider");
      const pending = await api("POST", `/v1/apps/${APP}/certificates/${host}/check`);
      expectSpec(pending.body, CERTIFICATE_CHECK, ALLOWED.check, CertificateCheckResponseSchema);
      if (responses === "sparse") expect(pending.body.dns_records.ownership_txt).toBeNull();
      await t.control.dns.set([{ type: "A", name: host, value: acme.body.dns_requirements.a[0] }]);
      const active = await api("POST", `/v1/apps/${APP}/certificates/${host}/check`);
      expectSpec(active.body, CERTIFICATE_CHECK, ALLOWED.check, CertificateCheckResponseSchema);
      expect(active.body.certificates.length).toBeGreaterThan(0);
      const { cert, key } = await makeCert(host);
      const custom = await api("POST", `/v1/apps/${APP}/certificates/custom`, {
        hostname: host,
        fullchain: cert,
        private_key: key,
      });
      expect(custom.status).toBe(201);
      expectSpec(custom.body, CERTIFICATE_DETAILS, ALLOWED.details, CertificateDetailsSchema);
      const got = await api("GET", `/v1/apps/${APP}/certificates/${host}`);
      expectSpec(got.body, CERTIFICATE_DETAILS, ALLOWED.details, CertificateDetailsSchema);
      expect(got.body.certificates.map((c: { source: string }) => c.source).sort()).toEqual([
        "custom",
        "platform",
      ]);
    });

    it("the list answers spec 2.6 entries and a total_count", async () => {
      expectSpec(
        (await api("GET", `/v1/apps/${APP}/certificates`)).body,
        CERTIFICATE_LIST,
        ALLOWED.list,
        CertificateListResponseSchema,
      );
    });

    it("the delete-kind operations answer details without dns_provider and rate_limited_until", async () => {
      for (const kind of ["custom", "acme"]) {
        const res = await api("DELETE", `/v1/apps/${APP}/certificates/${host}/${kind}`);
        expect(res.status, kind).toBe(200);
        expectSpec(res.body, CERTIFICATE_DETAILS_DELETE_KIND, ALLOWED.details, CertificateDetailsSchema);
        expect(res.body).not.toHaveProperty("dns_provider");
        expect(res.body).not.toHaveProperty("rate_limited_until");
      }
    });

    it("delete hostname answers 204 with an empty body", async () => {
      await api("POST", `/v1/apps/${APP}/certificates/acme`, { hostname: host });
      const res = await fetch(`${t.url}/v1/apps/${APP}/certificates/${host}`, {
        method: "DELETE",
        headers: { authorization: `Bearer ${t.token}` },
      });
      expect(res.status).toBe(204);
      expect(await res.text()).toBe("");
    });
  });

  describe("the emulator answers postgres and task endpoints with the spec's members and types", () => {
    it("rotate password answers spec 2.1 `{ data: { username, password } }`", async () => {
      const res = await api("POST", "/v1/postgres/demo-pg/users/app_user/rotate_password", {});
      expect(res.status).toBe(200);
      expectSpec(res.body, ROTATE_PASSWORD, ALLOWED.none, RotatePasswordResponseSchema);
    });

    it("the task API answers spec 2.7 tasks", async () => {
      const created = await taskApi("POST", "/v1/tasks", { name: "spec-task", expire: 60 });
      expect(created.status).toBe(201);
      expectSpec(created.body, TASK, ALLOWED.none, TaskSchema);
      expectSpec((await taskApi("GET", "/v1/tasks")).body, TASK_LIST, ALLOWED.taskList, TaskListSchema);
      expectSpec((await taskApi("GET", "/v1/tasks/spec-task")).body, TASK, ALLOWED.none, TaskSchema);
      expectSpec(
        (await taskApi("PUT", "/v1/tasks/spec-task", { expire: "30m" })).body,
        TASK,
        ALLOWED.none,
        TaskSchema,
      );
      expect((await taskApi("DELETE", "/v1/tasks/spec-task")).status).toBe(204);
    });
  });
});
