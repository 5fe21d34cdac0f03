import { defineConfig } from "vitest/config";

// Unit and integration tests run in parallel; the e2e project drives the real Pulumi engine and
// runs one file at a time (each `pulumi up` is CPU-heavy and CI has two cores).
export default defineConfig({
  test: {
    reporters: ["default", "./test/support/summary-reporter.ts"],
    projects: [
      {
        test: {
          name: "unit",
          include: ["test/unit/**/*.test.ts", "test/integration/**/*.test.ts"],
          testTimeout: 30_000,
          hookTimeout: 30_000,
          pool: "forks",
        },
      },
      {
        test: {
          name: "e2e",
          include: ["test/e2e/**/*.test.ts"],
          globalSetup: ["test/e2e/global-setup.ts"],
          testTimeout: 600_000,
          hookTimeout: 600_000,
          pool: "forks",
          fileParallelism: false,
        },
      },
    ],
  },
});
