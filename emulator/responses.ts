/**
 * The one place where the emulator decides the wire form of its answers (`--responses`).
 *
 * `full` (the default) sends every member the spec's field tables list, with their types.
 * `sparse` sends what the real platform may also send: each member the platform may leave out
 * or send as null is left out or null, chosen per member (the table in emulator/README.md), so
 * that clients meet real-world shapes in tests. The store always builds the full form, with a
 * missing DNS record as `null`; routes pass their answer through the shaper of their kind.
 */
import type {
  BackupWire,
  CertificateCheckResponseWire,
  CertificateDetailsWire,
  CertificateEntryWire,
  CertificateListEntryWire,
  CertificateListResponseWire,
  DnsRecordsWire,
  ExtendVolumeResponseWire,
  InitEvent,
  IssuedWire,
  OnDemandSnapshotResponseWire,
  PrimaryChangeEvent,
  SnapshotWire,
  TaskListWire,
  TxEvent,
  VolumeWire,
} from "../sdk/schemas";

/** `full`: every member of the spec's tables. `sparse`: what the real platform may omit is omitted or null. */
export type ResponseMode = "full" | "sparse";
export const RESPONSE_MODES: readonly ResponseMode[] = ["full", "sparse"];

/** An event as a node writes it; `hostname` may be absent (the node's encoder drops an empty one). */
export type WireEvent = TxEvent | InitEvent | PrimaryChangeEvent;

/** Shapes each kind of answer for the wire. */
export interface ResponseShaper {
  readonly mode: ResponseMode;
  volume(v: VolumeWire): VolumeWire;
  volumes(list: VolumeWire[]): VolumeWire[] | null;
  extend(r: ExtendVolumeResponseWire): ExtendVolumeResponseWire;
  snapshots(list: SnapshotWire[]): SnapshotWire[] | null;
  onDemandSnapshot(r: OnDemandSnapshotResponseWire): OnDemandSnapshotResponseWire;
  /** Get, ACME request, custom import and both delete-kind answers. */
  certificate(d: CertificateDetailsWire): CertificateDetailsWire;
  check(c: CertificateCheckResponseWire): CertificateCheckResponseWire;
  certificateList(l: CertificateListResponseWire): CertificateListResponseWire;
  taskList(l: TaskListWire): TaskListWire;
  event(e: WireEvent): WireEvent;
}

const same = <T>(value: T): T => value;

/** The spec's form: the store's answers as they are, a missing DNS record as `""` (spec 2.5: string). */
const FULL: ResponseShaper = {
  mode: "full",
  volume: same,
  volumes: same,
  extend: same,
  snapshots: same,
  onDemandSnapshot: same,
  certificate: same,
  check: (c) =>
    c.dns_records
      ? {
          ...c,
          dns_records: {
            ...c.dns_records,
            soa: c.dns_records.soa ?? "",
            acme_challenge_cname: c.dns_records.acme_challenge_cname ?? "",
            ownership_txt: c.dns_records.ownership_txt ?? "",
          },
        }
      : c,
  certificateList: same,
  taskList: same,
  event: same,
};

/** `null` for an empty list: how a Go nil slice marshals. */
const nullIfEmpty = <T>(list: T[] | null | undefined): T[] | null => (list && list.length > 0 ? list : null);
const nullIfEmptyString = (s: string | null | undefined): string | null => (s ? s : null);

/** A copy of `obj` without `keys`. */
function omit<T extends object, K extends keyof T>(obj: T, ...keys: K[]): Omit<T, K> {
  const out = { ...obj };
  for (const k of keys) delete out[k];
  return out;
}

function sparseVolume(v: VolumeWire): VolumeWire {
  const out: VolumeWire = { ...v, attached_machine_id: v.attached_machine_id ?? null };
  if (out.attached_alloc_id == null) delete out.attached_alloc_id;
  return out;
}

const sparseIssued = (i: IssuedWire): IssuedWire => omit(i, "certificate_authority");

function sparseEntry(e: CertificateEntryWire): CertificateEntryWire {
  const out: CertificateEntryWire = omit(e, "expires_at", "issuer");
  out.created_at = null;
  out.issued = nullIfEmpty(e.issued?.map(sparseIssued));
  return out;
}

function sparseDetails<T extends CertificateDetailsWire>(d: T): T {
  const out = omit(d, "dns_provider") as T;
  out.rate_limited_until = null;
  // The delete-kind answers leave out rate_limited_until in both modes (spec 2.5).
  if (!("rate_limited_until" in d)) delete out.rate_limited_until;
  out.certificates = nullIfEmpty(d.certificates?.map(sparseEntry));
  if (!d.validation_errors || d.validation_errors.length === 0) delete out.validation_errors;
  return out;
}

function sparseDnsRecords(r: DnsRecordsWire): DnsRecordsWire {
  return {
    a: nullIfEmpty(r.a),
    aaaa: nullIfEmpty(r.aaaa),
    cname: nullIfEmpty(r.cname),
    resolved_addresses: nullIfEmpty(r.resolved_addresses),
    soa: nullIfEmptyString(r.soa),
    acme_challenge_cname: nullIfEmptyString(r.acme_challenge_cname),
    ownership_txt: nullIfEmptyString(r.ownership_txt),
  };
}

const sparseListEntry = (e: CertificateListEntryWire): CertificateListEntryWire => omit(e, "dns_provider");

function sparseEvent(e: WireEvent): WireEvent {
  if (e.type === "tx" || e.data.hostname) return e;
  // The node's encoder leaves out an empty hostname (the primary's own init and primaryChange).
  return { ...e, data: omit(e.data, "hostname") } as WireEvent;
}

/** See the sparse-mode table in emulator/README.md; each member has one fixed form. */
const SPARSE: ResponseShaper = {
  mode: "sparse",
  volume: sparseVolume,
  volumes: (list) => nullIfEmpty(list.map(sparseVolume)),
  extend: (r) => ({ ...r, volume: sparseVolume(r.volume) }),
  snapshots: (list) => nullIfEmpty(list.map((s) => omit(s, "retention_days"))),
  onDemandSnapshot: (r) => {
    const backup: BackupWire = { ...r.Msg.backup, finished_at: null };
    // A protobuf JSON encoder leaves out an empty string.
    if (!backup.message) delete backup.message;
    return { ...r, Msg: { ...r.Msg, backup } };
  },
  certificate: sparseDetails,
  check: (c) => {
    const out = sparseDetails(c);
    out.dns_records = c.dns_records ? sparseDnsRecords(c.dns_records) : null;
    return out;
  },
  certificateList: (l) => {
    const out: CertificateListResponseWire = {
      ...l,
      certificates: nullIfEmpty(l.certificates?.map(sparseListEntry)),
    };
    if (!l.total_count) delete out.total_count;
    if (l.next_cursor == null) delete out.next_cursor;
    return out;
  },
  taskList: (l) => ({ ...l, tasks: nullIfEmpty(l.tasks) }),
  event: sparseEvent,
};

/** The shaper of `mode` (default `full`); throws a TypeError naming the modes for anything else. */
export function responseShaper(mode: ResponseMode | undefined): ResponseShaper {
  if (mode === undefined || mode === "full") return FULL;
  if (mode === "sparse") return SPARSE;
  throw new TypeError(`responses must be one of ${RESPONSE_MODES.join(", ")} (got ${JSON.stringify(mode)})`);
}
