import path from "node:path";
import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import { kindRequires } from "./test/support/kind-requires";

/**
 * Seconds each slow e2e file took in a fresh-clone CI run (two at a time on two cores). Vitest
 * starts the files it has no timing for yet (a fresh clone has none) largest first, which left
 * a 180 s file to run alone at the end while the other core idled; longest first is the schedule
 * that ends soonest. Only an order: a file missing here runs after these, and on a machine with
 * vitest's own timings (a developer's second run) those win.
 */
const MEASURED_SECONDS: Record<string, number> = {
  "test/e2e/lifetime.test.ts": 474,
  "test/e2e/provider-volume.test.ts": 432,
  "test/e2e/fleet.test.ts": 312,
  "test/e2e/rerun-after-kill.test.ts": 270,
  "test/e2e/unknown-outcome.test.ts": 181,
  "test/e2e/day2.test.ts": 175,
  "test/e2e/rotation-downtime.test.ts": 175,
  "test/e2e/first-hour.test.ts": 148,
  "test/e2e/unknown-outcome-plugin.test.ts": 145,
  "test/e2e/plugin-migration.test.ts": 143,
  "test/e2e/diff-answer.test.ts": 125,
  "test/e2e/demo.test.ts": 122,
  "test/e2e/examples.test.ts": 116,
  "test/e2e/upgrade.test.ts": 113,
  "test/e2e/provider-postgres.test.ts": 105,
  "test/e2e/checked-inputs.test.ts": 90,
  "test/e2e/interrupted-up.test.ts": 83,
  "test/e2e/provider-certificates.test.ts": 78,
  "test/e2e/plugin-yaml.test.ts": 75,
  "test/e2e/python-quickstart.test.ts": 75,
  "test/e2e/second-writer.test.ts": 70,
  "test/e2e/peer-range.test.ts": 70,
  "test/e2e/token-rotation.test.ts": 56,
  "test/e2e/go-quickstart.test.ts": 52,
  "test/e2e/consumer.test.ts": 47,
};

/** Vitest's order of groups and projects; inside a project, files that failed last time first, then longest first. */
class SlowestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const base = await super.sort(files);
    const cache = this.ctx.cache;
    const failed = (spec: TestSpecification): number =>
      cache.getTestSpecificationResult(spec)?.failed ? 1 : 0;
    const seconds = (spec: TestSpecification): number => {
      const cached = cache.getTestSpecificationResult(spec);
      if (cached) return cached.duration / 1000;
      return (
        MEASURED_SECONDS[path.relative(this.ctx.config.root, spec.moduleId).split(path.sep).join("/")] ?? 0
      );
    };
    // `base` keeps each project's files together; only the order inside a project changes.
    const runs: TestSpecification[][] = [];
    for (const spec of base) {
      const last = runs.at(-1);
      if (last?.[0]?.project.name === spec.project.name) last.push(spec);
      else runs.push([spec]);
    }
    return runs.flatMap((run) => [...run].sort((a, b) => failed(b) - failed(a) || seconds(b) - seconds(a)));
  }
}

// Two groups, one after the other: unit and integration tests, four files at a time; the e2e
// project, which drives the real Pulumi engine three files at a time (each `pulumi up` is
// CPU-heavy and CI has two cores; every file has its own emulator, file backend and stack names, so
// files do not share anything).
export default defineConfig({
  test: {
    reporters: ["default", "./test/support/summary-reporter.ts"],
    sequence: { sequencer: SlowestFirstSequencer },
    projects: [
      {
        plugins: [kindRequires()],
        test: {
          name: "unit",
          sequence: { groupOrder: 0 },
          // examples/: a user's own unit tests of a program (pulumi-platform/testing's mocks).
          include: ["test/unit/**/*.test.ts", "test/integration/**/*.test.ts", "examples/**/*.test.ts"],
          testTimeout: 30_000,
          hookTimeout: 30_000,
          pool: "forks",
          // Mostly waiting (HTTP to an emulator, sockets, timers): 38 % of two cores with vitest's
          // default of one worker here (cores - 1); four keep both cores busy.
          maxWorkers: 4,
        },
      },
      {
        plugins: [kindRequires()],
        test: {
          name: "e2e",
          sequence: { groupOrder: 1 },
          include: ["test/e2e/**/*.test.ts"],
          globalSetup: ["test/e2e/global-setup.ts"],
          // Fewer CLI processes after each Automation API command (the file says which and why).
          setupFiles: ["test/support/lean-automation.ts"],
          testTimeout: 600_000,
          hookTimeout: 600_000,
          pool: "forks",
          // Three at a time on two cores: a file waits (emulator latencies, kills, polling) for
          // about a fifth of its time, which a third file fills.
          maxWorkers: 3,
        },
      },
    ],
  },
});
