/**
 * Moving time forward for a stack's whole world: the emulator's virtual clock (its control API)
 * and the clock of every process the Pulumi CLI starts (the program and the dynamic provider),
 * through Debian's libfaketime preloaded into them (the CLI itself is a static Go binary and is
 * left alone). Nothing in the product knows about it: the provider reads the ordinary clock.
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import type { TestEmulator } from "./emulator";

const DAY_MS = 86_400_000;

/** libfaketime's preload library, from Debian's `faketime` package (`.ci/run` installs it). */
export function libfaketime(): string {
  const roots = ["/usr/lib", "/usr/local/lib", "/usr/lib64"];
  for (const root of roots) {
    const dirs = existsSync(root) ? readdirSync(root).map((d) => join(root, d)) : [];
    for (const dir of [root, ...dirs]) {
      const lib = join(dir, "faketime", "libfaketime.so.1");
      if (existsSync(lib)) return lib;
    }
  }
  throw new Error(
    "libfaketime is not installed: `apt-get install faketime` (.ci/run installs it); the lifetime tests move the provider's clock with it",
  );
}

/** Environment for a stack whose processes start at the real time (`+0d`) until moved. */
export function fakeTimeEnv(): Record<string, string> {
  return {
    LD_PRELOAD: libfaketime(),
    FAKETIME: "+0d",
    // Timers and timeouts keep real durations; only the wall clock moves.
    FAKETIME_DONT_FAKE_MONOTONIC: "1",
  };
}

/** The age of a stack's world: `to(days)` moves both clocks forward to that many days after the start. */
export class StackClock {
  private ageMs = 0;

  constructor(
    private readonly emulator: TestEmulator,
    private readonly stack: Stack,
  ) {}

  /** Days since the start. */
  get days(): number {
    return this.ageMs / DAY_MS;
  }

  /** Moves both clocks to `days` after the start (never back). */
  async to(days: number): Promise<void> {
    const target = days * DAY_MS;
    if (target < this.ageMs)
      throw new Error(`time only moves forward (at ${this.days} days, asked for ${days})`);
    await this.emulator.advance(target - this.ageMs);
    this.ageMs = target;
    this.stack.workspace.envVars.FAKETIME = `+${Math.round(target / 1000)}s`;
  }
}
