import type { VirtualClock } from "../clock";
import type { ResolvedTiming } from "../options";
import type { Seed } from "./seed";

/**
 * A part of the store: `reset` goes back to the seed, `serialize` gives its members of the state
 * file and `load` takes them back (the Store runs every part; a new part is one entry there).
 */
export interface StorePart<T> {
  reset(): void;
  serialize(): T;
  load(state: T): void;
}

/** What every sub-store shares: time, delays, the seed and a way to say "state changed". */
export interface StoreContext {
  clock: VirtualClock;
  timing: ResolvedTiming;
  seed: Seed;
  zonesPerRegion: number;
  /** Called after every mutation; the state file debounces on it. */
  changed(): void;
}
