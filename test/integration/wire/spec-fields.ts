/**
 * The spec's field tables (platform-api.md sections 2 and 4), written by hand, member by member:
 * the independent yardstick the emulator's answers are checked against. Not derived from
 * sdk/schemas.
 *
 * A type is `string`, `int`, `boolean`, `timestamp` (an ISO 8601 style string that parses),
 * `string[]`, `unknown[]`, a nested table, or `[table]` (array of that table); a trailing `|null`
 * means the spec allows null ("string or null", "timestamp or null").
 */

export type SpecType =
  | "string"
  | "string|null"
  | "int"
  | "boolean"
  | "timestamp"
  | "timestamp|null"
  | "string[]"
  | "unknown[]"
  | SpecTable
  | [SpecTable];

export interface SpecTable {
  [member: string]: SpecType;
}

/** Spec 2.2. */
export const VOLUME: SpecTable = {
  id: "string",
  name: "string",
  state: "string",
  size_gb: "int",
  region: "string",
  zone: "string",
  encrypted: "boolean",
  attached_machine_id: "string|null",
  attached_alloc_id: "string|null",
  created_at: "timestamp",
  blocks: "int",
  block_size: "int",
  blocks_free: "int",
  blocks_avail: "int",
  fstype: "string",
  snapshot_retention: "int",
  auto_backup_enabled: "boolean",
  host_dedication_key: "string",
};

/** Spec 2.3. */
export const SNAPSHOT: SpecTable = {
  id: "string",
  size: "int",
  digest: "string",
  created_at: "timestamp",
  retention_days: "int",
};

/** Spec 2.4 (`Msg.backup`). */
export const ON_DEMAND_SNAPSHOT: SpecTable = {
  Msg: {
    backup: {
      id: "string",
      app_id: "string",
      volume_id: "string",
      state: "string",
      type: "string",
      message: "string",
      created_at: "timestamp",
      updated_at: "timestamp",
      finished_at: "timestamp|null",
      graph_id: "string",
    },
  },
};

/** Spec 4.3 extend. */
export const EXTEND: SpecTable = { volume: VOLUME, needs_restart: "boolean" };

const ISSUED: SpecTable = { type: "string", expires_at: "timestamp", certificate_authority: "string" };

const CERTIFICATE_ENTRY: SpecTable = {
  source: "string",
  status: "string",
  created_at: "timestamp",
  expires_at: "timestamp",
  issuer: "string|null",
  issued: [ISSUED],
};

const DNS_REQUIREMENTS: SpecTable = {
  a: "string[]",
  aaaa: "string[]",
  cname: "string",
  acme_challenge: { name: "string", target: "string" },
  ownership: { name: "string", app_value: "string", org_value: "string" },
};

/** Spec 2.5 certificate details, as the delete-kind operations answer (no dns_provider, rate_limited_until). */
export const CERTIFICATE_DETAILS_DELETE_KIND: SpecTable = {
  hostname: "string",
  configured: "boolean",
  acme_requested: "boolean",
  status: "string",
  certificates: [CERTIFICATE_ENTRY],
  validation: {
    dns_configured: "boolean",
    alpn_configured: "boolean",
    http_configured: "boolean",
    ownership_txt_configured: "boolean",
  },
  dns_requirements: DNS_REQUIREMENTS,
  validation_errors: "unknown[]",
};

/** Spec 2.5 certificate details. */
export const CERTIFICATE_DETAILS: SpecTable = {
  ...CERTIFICATE_DETAILS_DELETE_KIND,
  dns_provider: "string",
  rate_limited_until: "timestamp|null",
};

/** Spec 2.5 `dns_records` (check only). */
export const CERTIFICATE_CHECK: SpecTable = {
  ...CERTIFICATE_DETAILS,
  dns_records: {
    a: "string[]",
    aaaa: "string[]",
    cname: "string[]",
    resolved_addresses: "string[]",
    soa: "string",
    acme_challenge_cname: "string",
    ownership_txt: "string",
  },
};

/** Spec 2.6 list entry and 4.2 list response. */
export const CERTIFICATE_LIST: SpecTable = {
  certificates: [
    {
      hostname: "string",
      status: "string",
      dns_provider: "string",
      acme_dns_configured: "boolean",
      acme_alpn_configured: "boolean",
      acme_http_configured: "boolean",
      ownership_txt_configured: "boolean",
      configured: "boolean",
      acme_requested: "boolean",
      has_custom_certificate: "boolean",
      has_platform_certificate: "boolean",
      created_at: "timestamp",
      updated_at: "timestamp",
    },
  ],
  total_count: "int",
};

/** Spec 2.1 and 4.1. */
export const ROTATE_PASSWORD: SpecTable = { data: { username: "string", password: "string" } };

/** Spec 2.7. */
export const TASK: SpecTable = { name: "string", started_at: "timestamp", expires_at: "timestamp" };

/** Spec 4.4 list. */
export const TASK_LIST: SpecTable = { tasks: [TASK] };

/**
 * Where the value breaks the table: a missing member, or one of another type. Members the table
 * does not name are allowed (readers tolerate additions). `mayBeAbsent(path)` lets a member be
 * absent or null (for the sparse mode).
 */
export function specProblems(
  value: unknown,
  table: SpecTable,
  path = "",
  mayBeAbsent: (path: string) => boolean = () => false,
): string[] {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return [`${path || "(root)"}: expected an object, got ${describe(value)}`];
  }
  const record = value as Record<string, unknown>;
  const problems: string[] = [];
  for (const [member, type] of Object.entries(table)) {
    const at = path ? `${path}.${member}` : member;
    const v = record[member];
    if (v === undefined || v === null) {
      if (mayBeAbsent(at)) continue;
      if (v === null && typeof type === "string" && type.endsWith("|null")) continue;
      problems.push(`${at}: ${v === undefined ? "missing" : "null"} (spec: ${label(type)})`);
      continue;
    }
    problems.push(...typeProblems(v, type, at, mayBeAbsent));
  }
  return problems;
}

function typeProblems(
  v: unknown,
  type: SpecType,
  at: string,
  mayBeAbsent: (path: string) => boolean,
): string[] {
  if (Array.isArray(type)) {
    if (!Array.isArray(v)) return [`${at}: expected an array, got ${describe(v)}`];
    return v.flatMap((item, i) =>
      specProblems(item, type[0], `${at}[${i}]`, (p) => mayBeAbsent(p.replace(/\[\d+\]/g, "[]"))),
    );
  }
  if (typeof type === "object") return specProblems(v, type, at, mayBeAbsent);
  const ok = (() => {
    switch (type.replace("|null", "")) {
      case "string":
        return typeof v === "string";
      case "int":
        return Number.isInteger(v);
      case "boolean":
        return typeof v === "boolean";
      case "timestamp":
        return (
          typeof v === "string" && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(v) && !Number.isNaN(Date.parse(v))
        );
      case "string[]":
        return Array.isArray(v) && v.every((s) => typeof s === "string");
      case "unknown[]":
        return Array.isArray(v);
      default:
        return false;
    }
  })();
  return ok ? [] : [`${at}: expected ${type}, got ${describe(v)}`];
}

function label(type: SpecType): string {
  return typeof type === "string" ? type : Array.isArray(type) ? "array of objects" : "object";
}

function describe(v: unknown): string {
  return v === null ? "null" : Array.isArray(v) ? "an array" : `${typeof v} ${JSON.stringify(v)}`;
}

/**
 * Members the real platform may leave out or send as null (issue 9; the platform's Go client
 * models them as pointers, `omitempty` members and nil slices), per table, as paths (`[]` stands
 * for any array index). A sparse answer may leave out or null exactly these.
 */
export const MAY_BE_ABSENT = {
  volume: [
    "attached_machine_id",
    "attached_alloc_id",
    "blocks",
    "block_size",
    "blocks_free",
    "blocks_avail",
    "fstype",
    "host_dedication_key",
  ],
  snapshot: ["retention_days"],
  onDemandSnapshot: [
    "app_id",
    "volume_id",
    "state",
    "type",
    "message",
    "created_at",
    "updated_at",
    "finished_at",
  ].map((m) => `Msg.backup.${m}`),
  certificateDetails: [
    "dns_provider",
    "rate_limited_until",
    "certificates",
    "validation_errors",
    "dns_requirements.a",
    "dns_requirements.aaaa",
    "certificates[].created_at",
    "certificates[].expires_at",
    "certificates[].issuer",
    "certificates[].issued",
    "certificates[].issued[].certificate_authority",
  ],
  dnsRecords: [
    "dns_records",
    "dns_records.a",
    "dns_records.aaaa",
    "dns_records.cname",
    "dns_records.resolved_addresses",
    "dns_records.soa",
    "dns_records.acme_challenge_cname",
    "dns_records.ownership_txt",
  ],
  certificateList: ["certificates", "certificates[].dns_provider", "total_count"],
  taskList: ["tasks"],
} as const;

/** A `mayBeAbsent` for {@link specProblems} from lists of {@link MAY_BE_ABSENT}. */
export function absentAllowed(...lists: readonly (readonly string[])[]): (path: string) => boolean {
  const allowed = new Set(lists.flat());
  return (path) => allowed.has(path.replace(/\[\d+\]/g, "[]"));
}
