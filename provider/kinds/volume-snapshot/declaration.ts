/**
 * `VolumeSnapshotRequest` (the dynamic resource of the `VolumeSnapshot` component) declared once
 * (spec 4.3, beta endpoint).
 * @module
 */
import { inputChanged } from "../../model/change-plan";
import {
  type ChangeContext,
  declareResource,
  type InputValues,
  input,
  output,
  type PropertyEffect,
} from "../../model/declaration";
import { inputFailures } from "../../model/input-check";
import type { ValidationFailure } from "../../model/validation/common";
import { optionalStringMap, optionalWaitSeconds, requiredString } from "../../model/validation/fields";
import { t } from "../../model/value-types";

/** Default of `waitTimeoutSeconds`: how long to wait for the snapshot to be listed. */
export const DEFAULT_SNAPSHOT_WAIT_SECONDS = 300;

/**
 * Takes an on-demand snapshot of a volume and waits until it is listed. Change `triggers` to take
 * a new one (a volume already restored from this one is kept: a restore is an event); a change of
 * an input that replaces it takes a new one too. A snapshot is an event as well, so a changed
 * `volumeId` alone (the volume deleted and made again, say) takes none, and preview and up warn.
 * Deleting it changes nothing at the platform (snapshot retention removes snapshots). Once
 * retention has removed the snapshot, `pulumi refresh` records `listed: false` and keeps it in the
 * stack with its `snapshotId`.
 */
export const volumeSnapshotDeclaration = declareResource({
  type: "VolumeSnapshot",
  inputs: {
    /** App that owns the volume. */
    app: input(requiredString("app", "the name of the app that owns the volume"), {
      change: "replace",
      output: "stored",
    }),
    /**
     * Volume to snapshot, e.g. `volume.volumeId`. A snapshot is an event: once taken, a changed
     * `volumeId` (the volume was deleted and made again, say) takes no new snapshot and replaces
     * nothing restored from this one; the stack keeps the volume it was taken of and preview and up
     * warn. Change `triggers` to take a snapshot of the new volume.
     */
    volumeId: input(requiredString("volumeId", "the volume to snapshot"), {
      change: "special",
      decide: volumeChange,
      output: "stored",
    }),
    /** Arbitrary values; any change takes a new snapshot (the old one is left to retention). */
    triggers: input(optionalStringMap("triggers"), { change: "replace", output: "stored", exact: true }),
    /**
     * Seconds to wait until the snapshot appears in the volume's snapshot list (default 300). On
     * timeout the snapshot stays in the stack and the next `pulumi up` waits again.
     */
    waitTimeoutSeconds: input(optionalWaitSeconds("waitTimeoutSeconds"), {
      change: "record",
      output: "stored",
    }),
  },
  outputs: {
    /** Id of the backup record the snapshot was taken as; null when a lost answer was resolved from the list. */
    backupId: output<string | null>(t.nullable(t.string)),
    /** Id of the snapshot (the backup's `graph_id`); feed it to `Volume.snapshotId` to restore. */
    snapshotId: output<string>(t.string),
    /** State of the backup when it was started (e.g. `prepare`); null when the platform left it out. */
    state: output<string | null>(t.nullable(t.string)),
    /** Backup type, `BACKUP_TYPE_ON_DEMAND`; null when the platform left it out. */
    backupType: output<string | null>(t.nullable(t.string)),
    /** Creation timestamp of the backup record; null when the platform left it out. */
    backupCreatedAt: output<string | null>(t.nullable(t.string)),
    /**
     * Whether the platform listed the snapshot at the last look (create, `pulumi refresh`). False
     * while a timed-out wait is pending, and once retention has removed the snapshot: the resource
     * and its `snapshotId` then stay in the stack as a record of the snapshot that was taken, so
     * nothing restored from it is replaced.
     */
    listed: output<boolean>(t.boolean),
    /**
     * When the provider last saw the snapshot listed (ISO 8601); null while a timed-out wait is
     * pending. Once `listed` is false it says when the snapshot was last known to exist.
     */
    lastSeenAt: output<string | null>(t.nullable(t.string)),
    /** Size in bytes, from the snapshot list. */
    size: output<number | null>(t.nullable(t.number)),
    /** Digest, from the snapshot list. */
    digest: output<string | null>(t.nullable(t.string)),
    /** Creation timestamp of the snapshot. */
    createdAt: output<string | null>(t.nullable(t.string)),
    /** Days the snapshot is kept; null until listed, or when the platform does not say. */
    retentionDays: output<number | null>(t.nullable(t.integer)),
  },
});

/** VolumeSnapshot inputs as the runtime receives them. */
export type VolumeSnapshotInputs = InputValues<typeof volumeSnapshotDeclaration>;

/** Validates VolumeSnapshot inputs. */
export function validateVolumeSnapshotArgs(news: Record<string, unknown>): ValidationFailure[] {
  return inputFailures(volumeSnapshotDeclaration, news);
}

/**
 * A snapshot is an event: a changed `volumeId` (the volume made again, say) takes no new snapshot
 * and changes nothing (`warn`: the day-2 warning says so and names `triggers`).
 */
function volumeChange({ olds, news }: ChangeContext): PropertyEffect | undefined {
  const given = news.volumeId;
  if (given === undefined || given === null || typeof olds.volumeId !== "string" || olds.volumeId === "") {
    return undefined;
  }
  return inputChanged(olds, news, "volumeId") ? "warn" : undefined;
}
