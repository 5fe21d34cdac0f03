import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// A user's test whose program breaks a rule under platformMocks() (the default `onCheckFailure`)
// is run as vitest runs it (test/fixtures/mocks-check-failure): the run fails with one error, the
// message `pulumi preview` prints, and the test's own awaits of the resource's outputs end.

const ROOT = path.resolve(__dirname, "../../..");
const CONFIG = path.join(ROOT, "test/fixtures/mocks-check-failure/vitest.config.mts");

function runFixture(door: "dynamic" | "plugin"): Promise<{ code: number | null; output: string }> {
  const child = spawn(
    process.execPath,
    [path.join(ROOT, "node_modules/vitest/vitest.mjs"), "run", "--config", CONFIG],
    {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0", MOCKS_DOOR: door },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  return new Promise((resolve) => child.once("close", (code) => resolve({ code, output })));
}

describe("a check failure under platformMocks() is one error", () => {
  it.each([
    ["dynamic", "pulumi-nodejs:dynamic/platform:Volume"],
    ["plugin", "platform:index:Volume"],
  ] as const)(
    "%s door: the run fails with the preview's message once, and the test does not wait",
    async (door, type) => {
      const { code, output } = await runFixture(door);
      expect(code, output).toBe(1);
      expect(output.match(/Unhandled Rejection/g), output).toHaveLength(1);
      expect(output).toContain(
        `PlatformCheckError: ${type} resource 'data': property sizeGb value {-1} has a problem: sizeGb must be a whole number from 1 to 500000 GB (got -1)`,
      );
      expect(output).toMatch(/Tests\s+1 passed/);
      expect(output).toMatch(/Errors\s+1 error/);
    },
  );

  it("the docs and the example say so, in the same words", () => {
    const read = (file: string) => fs.readFileSync(path.join(ROOT, file), "utf8").replace(/\s+/g, " ");
    expect(read("docs/testing.md")).toContain(
      "raised once, as one unhandled rejection (`PlatformCheckError`)",
    );
    const example = read("examples/unit-testing/README.md");
    expect(example).toContain("fails the run as one error, an unhandled rejection (`PlatformCheckError`)");
    expect(example).not.toMatch(/registration fails/);
  });
});
