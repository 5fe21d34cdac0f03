import type { ResponseMode } from "./responses";
import type { SeedInput } from "./store/seed";

/** Delays of the emulated platform, all in virtual milliseconds (see clock.ts). */
export interface TimingOptions {
  /** A volume created from a snapshot stays `restoring` this long. Default 2000. */
  restoreDelayMs?: number;
  /** An on-demand snapshot appears in the snapshot list after this long. Default 1500. */
  snapshotListDelayMs?: number;
  /** With no live task, the instance goes from running to warm after this long. Default 5000. */
  warmAfterMs?: number;
  /** Once warm, the instance goes cold after this much more idle time. Default 30000. */
  coldAfterMs?: number;
  /** A replica receives each transaction this long after the primary wrote it. Default 50. */
  replicationLagMs?: number;
  /** Debounce of state-file writes, in real milliseconds. Default 25. */
  persistDebounceMs?: number;
}

export type ResolvedTiming = Required<TimingOptions>;

export const DEFAULT_TIMING: ResolvedTiming = {
  restoreDelayMs: 2000,
  snapshotListDelayMs: 1500,
  warmAfterMs: 5000,
  coldAfterMs: 30000,
  replicationLagMs: 50,
  persistDebounceMs: 25,
};

export interface EmulatorOptions {
  /** Interface of the remote API and event listeners. Default 127.0.0.1. */
  host?: string;
  /** Port of the remote API; 0 picks a free port. Default 4280. */
  port?: number;
  /** Bearer token the API accepts; random when absent. */
  token?: string;
  /** File that keeps volumes, snapshots, certificates, tasks and cluster states across restarts. */
  stateFile?: string;
  /** Apps, clusters and users to add to the default seed. */
  seed?: SeedInput;
  /** JSON file with the same shape as `seed`. */
  seedFile?: string;
  /** Unix socket of the local task API. Default `/.platform/api.sock` when usable, else a temp path. */
  taskSocket?: string;
  /** Port of the primary database node's event stream; 0 (the default) picks a free port. */
  eventsPort?: number;
  timing?: TimingOptions;
  /** Seed of the fault-injection random generator (probabilities). Default 1. */
  faultSeed?: number;
  /** Zones per region for `require_unique_zone` placement. Default 3. */
  zonesPerRegion?: number;
  /** A stream consumer whose unsent bytes exceed this is disconnected. Default 1 MiB. */
  eventsBufferBytes?: number;
  /** No logs on stderr. */
  quiet?: boolean;
  /**
   * Wire form of the answers: `full` (default) sends every member of the spec's tables;
   * `sparse` omits or nulls each member the real platform may omit or null (emulator/README.md).
   */
  responses?: ResponseMode;
  /**
   * Requests per second each token may make to the remote API (a token bucket holding one
   * second's worth); beyond it the answer is 429 with `Retry-After`. Default: no limit.
   */
  rateLimitPerSecond?: number;
}

export function resolveTiming(timing: TimingOptions | undefined): ResolvedTiming {
  const out = { ...DEFAULT_TIMING };
  for (const [key, value] of Object.entries(timing ?? {})) {
    if (value === undefined) continue;
    if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
      throw new TypeError(`timing.${key} must be a non-negative number of milliseconds`);
    }
    (out as Record<string, number>)[key] = value;
  }
  return out;
}
