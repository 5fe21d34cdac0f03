/**
 * The one mapping of a snapshot list entry as the platform reports it (the sdk's parsed
 * `Snapshot`, spec 2.3) to camelCase: the lookups' `SnapshotInfo` and the `VolumeSnapshot`
 * outputs of the same names come from it.
 * Loaded by the program too (lookups): it imports the sdk's types only.
 * @module
 */
import type { Snapshot } from "../../../sdk/schemas/volume";

/** A snapshot list entry, camelCase (spec 2.3). */
export interface SnapshotInfo {
  /** Snapshot id (usable as `Volume.snapshotId`). */
  snapshotId: string;
  /** Size in bytes. */
  size: number;
  /** Digest. */
  digest: string;
  /** Creation timestamp. */
  createdAt: string;
  /** Days the snapshot is kept; null when the platform does not say. */
  retentionDays: number | null;
}

/** The camelCase entry of a parsed snapshot. */
export function snapshotInfo(s: Snapshot): SnapshotInfo {
  return {
    snapshotId: s.id,
    size: s.size,
    digest: s.digest,
    createdAt: s.created_at,
    retentionDays: s.retention_days,
  };
}
