/**
 * Facts about volumes that the sdk, the provider (the runtime, `adopt`, `recover`) and the
 * emulator share. Imports nothing, so that what loads it before (or without) the sdk's clients
 * pays nothing for it.
 * @module
 */

/** Volume states seen on the platform: `created`, `restoring`, `destroyed`; others may appear. */
export type VolumeState = "created" | "restoring" | "destroyed" | (string & {});

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
