/**
 * Facts about volumes that the sdk, the provider (a program's declarations, the runtime, `adopt`,
 * `recover`) and the emulator share. Imports nothing: a Pulumi program loads it (for the
 * declarations' rules) and must not load the sdk's clients.
 * @module
 */

/** Volume states seen on the platform: `created`, `restoring`, `destroyed`; others may appear. */
export type VolumeState = "created" | "restoring" | "destroyed" | (string & {});

/** Limits of `snapshot_retention` in days (spec 8). */
export const SNAPSHOT_RETENTION_MIN = 1;
export const SNAPSHOT_RETENTION_MAX = 60;
/** Days snapshots are kept when `snapshot_retention` is not set (spec 2.2). */
export const SNAPSHOT_RETENTION_DEFAULT = 5;

/**
 * Volume states on the way out: such a volume is gone (a refresh drops it) and is nothing to
 * manage, adopt, recover or suspect as a leftover. The spec names `destroyed`; `destroying` and
 * `pending_destroy` are the states a volume may pass through before it.
 */
export const GONE_VOLUME_STATES: ReadonlySet<VolumeState> = new Set<VolumeState>([
  "destroyed",
  "destroying",
  "pending_destroy",
]);
