/**
 * The one mapping of a snapshot list entry as the platform reports it (the sdk's parsed
 * `Snapshot`, spec 2.3) to camelCase: the lookups' `SnapshotInfo` and the `VolumeSnapshot`
 * outputs of the same names come from it; and the outputs of a snapshot request, from the backup
 * record (spec 2.4), the list entry and when it was seen, which the runtime and the mocks record.
 * Loaded by the program too (lookups): it imports the sdk's types only.
 * @module
 */
import type { Backup, Snapshot } from "../../../sdk/schemas/volume";
import { type OutputValues, storedInputs } from "../../model/declaration";
import { clean, pick } from "../../model/json-values";
import type { CheckedInputs, Outs, RecordedOutputs } from "../../runtime/define";
import { volumeSnapshotDeclaration } from "./declaration";

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

type Declaration = typeof volumeSnapshotDeclaration;

const STORED = storedInputs(volumeSnapshotDeclaration);

/** The outputs that come from the backup record. */
export const BACKUP_KEYS = ["backupId", "snapshotId", "state", "backupType", "backupCreatedAt"] as const;

/** What is known of the backup record: all of it after a POST, less after a lost answer. */
export type BackupFacts = Pick<OutputValues<Declaration>, "snapshotId"> &
  Partial<Pick<OutputValues<Declaration>, (typeof BACKUP_KEYS)[number]>>;

/** What is known of a snapshot: a list entry, or what the stack recorded of one. */
export type SnapshotFacts = {
  [K in keyof SnapshotInfo]: K extends "snapshotId" ? string : SnapshotInfo[K] | null;
};

/** Whether the platform listed the snapshot at the last look, and when it was last seen listed. */
export interface Sighting {
  listed: boolean;
  lastSeenAt: string | null;
}

/** The backup record's facts (spec 2.4). */
export function backupFields(backup: Backup): BackupFacts {
  return {
    backupId: backup.id,
    snapshotId: backup.graph_id,
    state: backup.state,
    backupType: backup.type,
    backupCreatedAt: backup.created_at,
  };
}

/** A snapshot request's outputs: its stored inputs, the backup record, the list entry, the sighting. */
export function snapshotOutputs(
  inputs: CheckedInputs<Declaration> | RecordedOutputs<Declaration>,
  backup: BackupFacts,
  snapshot: SnapshotFacts | undefined,
  sighting: Sighting,
): Outs<Declaration> {
  return clean({
    ...pick(inputs, STORED),
    backupId: backup.backupId ?? null,
    snapshotId: backup.snapshotId,
    // Backup fields the platform may leave out are null in outputs, never absent.
    state: backup.state ?? null,
    backupType: backup.backupType ?? null,
    backupCreatedAt: backup.backupCreatedAt ?? null,
    listed: sighting.listed,
    lastSeenAt: sighting.lastSeenAt,
    size: snapshot?.size ?? null,
    digest: snapshot?.digest ?? null,
    createdAt: snapshot?.createdAt ?? backup.backupCreatedAt ?? null,
    retentionDays: snapshot?.retentionDays ?? null,
  });
}
