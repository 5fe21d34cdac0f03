import type { VirtualClock } from "../clock";
import type { ResolvedTiming } from "../options";
import type { Seed } from "./seed";

/** What every sub-store shares: time, delays, the seed and a way to say "state changed". */
export interface StoreContext {
  clock: VirtualClock;
  timing: ResolvedTiming;
  seed: Seed;
  zonesPerRegion: number;
  /** Called after every mutation; the state file debounces on it. */
  changed(): void;
}
