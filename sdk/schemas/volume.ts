import { z } from "zod";
import { listOrEmpty, orNone, orNull, Timestamp } from "./common";

import { SNAPSHOT_RETENTION_MAX, SNAPSHOT_RETENTION_MIN } from "./volume-constants";

export {
  GONE_VOLUME_STATES,
  SNAPSHOT_RETENTION_MAX,
  SNAPSHOT_RETENTION_MIN,
  type VolumeState,
} from "./volume-constants";

/** A volume's state (see {@link VolumeState}): any string, since others may appear. */
export const VolumeStateSchema = z.string();

/**
 * A volume as returned by every volume endpoint (spec 2.2). The attachment ids may be omitted
 * or null (parsed: `null`); the block counts, `fstype` and `host_dedication_key` may be omitted or
 * null too (parsed: `0` and `""`, the values the platform itself uses for "not known").
 */
export const VolumeSchema = z.object({
  id: z.string(),
  name: z.string(),
  state: VolumeStateSchema,
  size_gb: z.number().int(),
  region: z.string(),
  zone: z.string(),
  encrypted: z.boolean(),
  attached_machine_id: orNull(z.string()),
  attached_alloc_id: orNull(z.string()),
  created_at: Timestamp,
  blocks: orNone(z.number().int(), 0),
  block_size: orNone(z.number().int(), 0),
  blocks_free: orNone(z.number().int(), 0),
  blocks_avail: orNone(z.number().int(), 0),
  fstype: orNone(z.string(), ""),
  snapshot_retention: z.number().int(),
  auto_backup_enabled: z.boolean(),
  host_dedication_key: orNone(z.string(), ""),
});
/** A volume as parsed: loosened members in their normal form, never undefined. */
export type Volume = z.infer<typeof VolumeSchema>;
/** A volume as it may come over the wire (what the platform may send). */
export type VolumeWire = z.input<typeof VolumeSchema>;

/** The volume list; a `null` body (an empty Go slice) parses to `[]`. */
export const VolumeListSchema = listOrEmpty(VolumeSchema);

/** Placement hint of a volume create (spec 4.3 `compute`). */
export const ComputeSchema = z.object({
  cpu_kind: z.enum(["shared", "performance"]).optional(),
  cpus: z.number().int().positive().optional(),
  gpu_kind: z.string().optional(),
  gpus: z.number().int().nonnegative().optional(),
  host_dedication_id: z.string().optional(),
  kernel_args: z.array(z.string()).optional(),
  memory_mb: z.number().int().positive().optional(),
});
export type Compute = z.infer<typeof ComputeSchema>;

/** `snapshot_retention`: whole days within the platform's limits. */
export const SnapshotRetentionSchema = z
  .number()
  .int()
  .min(SNAPSHOT_RETENTION_MIN)
  .max(SNAPSHOT_RETENTION_MAX);

/** The file system of a volume created without `fstype` (spec 4.3 create table). */
export const DEFAULT_FSTYPE = "ext4";

/** Body of POST /v1/apps/{app}/volumes (spec 4.3 create table). */
export const CreateVolumeRequestSchema = z.object({
  name: z.string().min(1),
  region: z.string().min(1).optional(),
  size_gb: z.number().int().positive().optional(),
  encrypted: z.boolean().optional(),
  fstype: z.string().min(1).optional(),
  auto_backup_enabled: z.boolean().optional(),
  snapshot_retention: SnapshotRetentionSchema.optional(),
  snapshot_id: z.string().min(1).optional(),
  source_volume_id: z.string().min(1).optional(),
  machines_only: z.boolean().optional(),
  require_unique_zone: z.boolean().optional(),
  compute: ComputeSchema.optional(),
});
export type CreateVolumeRequest = z.infer<typeof CreateVolumeRequestSchema>;

/** Body of PUT /v1/apps/{app}/volumes/{id}. */
export const UpdateVolumeRequestSchema = z.object({
  auto_backup_enabled: z.boolean().optional(),
  snapshot_retention: SnapshotRetentionSchema.optional(),
});
export type UpdateVolumeRequest = z.infer<typeof UpdateVolumeRequestSchema>;

/** Body of PUT /v1/apps/{app}/volumes/{id}/extend. */
export const ExtendVolumeRequestSchema = z.object({ size_gb: z.number().int().positive() });
export type ExtendVolumeRequest = z.infer<typeof ExtendVolumeRequestSchema>;

export const ExtendVolumeResponseSchema = z.object({
  volume: VolumeSchema,
  needs_restart: z.boolean(),
});
export type ExtendVolumeResponse = z.infer<typeof ExtendVolumeResponseSchema>;
/** The extend answer as it may come over the wire. */
export type ExtendVolumeResponseWire = z.input<typeof ExtendVolumeResponseSchema>;

/** A snapshot list entry (spec 2.3); `retention_days` may be omitted or null (parsed: `null`). */
export const SnapshotSchema = z.object({
  id: z.string(),
  size: z.number().int(),
  digest: z.string(),
  created_at: Timestamp,
  retention_days: orNull(z.number().int()),
});
export type Snapshot = z.infer<typeof SnapshotSchema>;
/** A snapshot list entry as it may come over the wire. */
export type SnapshotWire = z.input<typeof SnapshotSchema>;
/** The snapshot list; a `null` body parses to `[]`. */
export const SnapshotListSchema = listOrEmpty(SnapshotSchema);

/**
 * The backup record of an on-demand snapshot (spec 2.4). Only `id` and `graph_id` are required:
 * the record is a protobuf message in JSON, whose encoder leaves out unset members, so the others
 * may be omitted or null (parsed: `null`; `message`: `""`).
 */
export const BackupSchema = z.object({
  id: z.string(),
  app_id: orNull(z.string()),
  volume_id: orNull(z.string()),
  state: orNull(z.string()),
  type: orNull(z.string()),
  message: orNone(z.string(), ""),
  created_at: orNull(Timestamp),
  updated_at: orNull(Timestamp),
  finished_at: orNull(Timestamp),
  graph_id: z.string(),
});
export type Backup = z.infer<typeof BackupSchema>;
/** A backup record as it may come over the wire. */
export type BackupWire = z.input<typeof BackupSchema>;

/** Response of the beta on-demand snapshot endpoint: the outer key is capitalized `Msg`. */
export const OnDemandSnapshotResponseSchema = z.object({
  Msg: z.object({ backup: BackupSchema }),
});
export type OnDemandSnapshotResponse = z.infer<typeof OnDemandSnapshotResponseSchema>;
/** The on-demand snapshot answer as it may come over the wire. */
export type OnDemandSnapshotResponseWire = z.input<typeof OnDemandSnapshotResponseSchema>;
