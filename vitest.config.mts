import { defineConfig } from "vitest/config";

// Unit and integration tests run first, in parallel; then the e2e project drives the real Pulumi
// engine two files at a time (each `pulumi up` is CPU-heavy and CI has two cores; every file has
// its own emulator, file backend and stack names, so files do not share anything).
export default defineConfig({
  test: {
    reporters: ["default", "./test/support/summary-reporter.ts"],
    projects: [
      {
        test: {
          name: "unit",
          sequence: { groupOrder: 0 },
          // examples/: a user's own unit tests of a program (pulumi-platform/testing's mocks).
          include: ["test/unit/**/*.test.ts", "test/integration/**/*.test.ts", "examples/**/*.test.ts"],
          testTimeout: 30_000,
          hookTimeout: 30_000,
          pool: "forks",
        },
      },
      {
        test: {
          name: "e2e",
          sequence: { groupOrder: 1 },
          include: ["test/e2e/**/*.test.ts"],
          globalSetup: ["test/e2e/global-setup.ts"],
          testTimeout: 600_000,
          hookTimeout: 600_000,
          pool: "forks",
          maxWorkers: 2,
        },
      },
    ],
  },
});
