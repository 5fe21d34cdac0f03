import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { NODE_FLOOR } from "../../../sdk/node-floor";

// Pulumi runs the program and the plugin on the `node` first on PATH. An older one (Node 20 is
// still many systems' node) must be found where a user first meets the package, with what to do:
// at the program's import of either door and at the plugin's start, not at the first request of
// the first preview. The older Node is played by this one with `process.versions.node` set back.

const ROOT = path.resolve(__dirname, "../../..");

/** Loads `entry` (compiled, under dist/) in a fresh Node that says it is `version`. */
function load(entry: string, version: string) {
  const script = [
    `Object.defineProperty(process.versions, "node", { value: ${JSON.stringify(version)} });`,
    `require(${JSON.stringify(path.join(ROOT, entry))});`,
    // The plugin's bin would serve until stopped: a start that was not refused ends here.
    `setTimeout(() => { console.log("loaded"); process.exit(0); }, 500);`,
  ].join("\n");
  return spawnSync(process.execPath, ["-e", script], { cwd: ROOT, encoding: "utf8", timeout: 60_000 });
}

const ENTRIES = [
  ["the package root (the dynamic door)", "dist/provider/index.js"],
  ["pulumi-platform/plugin (the plugin door's classes)", "dist/provider/plugin/index.js"],
  ["pulumi-platform/sdk", "dist/sdk/index.js"],
] as const;

const BINS = [
  ["the plugin's bin", "dist/provider/plugin/main.js"],
  ["the emulator's bin", "dist/emulator/cli.js"],
  ["the pulumi-platform command", "dist/ops/main.js"],
] as const;

const message = (version: string) =>
  `pulumi-platform needs Node.js ${NODE_FLOOR} or later; this is Node.js ${version} (${process.execPath}). ` +
  "Put a newer node first on PATH (Pulumi starts the node it finds there): `nvm install 22`, " +
  "your system's Node.js 22 package, or an installer from https://nodejs.org.";

describe("an older Node.js is refused where the package is first loaded, in one message", () => {
  for (const [what, entry] of ENTRIES) {
    it(`${what} refuses Node 20 with an error Pulumi prints without a stack`, () => {
      // What a Pulumi program's language host does with an error thrown at the program's import:
      // a RunError's message alone, anything else with its stack.
      const script = [
        `Object.defineProperty(process.versions, "node", { value: "20.20.2" });`,
        `const { RunError } = require("@pulumi/pulumi/errors");`,
        `try { require(${JSON.stringify(path.join(ROOT, entry))}); console.log("loaded"); }`,
        `catch (e) { console.log(JSON.stringify({ message: e.message, stack: e.stack, run: RunError.isInstance(e) })); }`,
      ].join("\n");
      const run = spawnSync(process.execPath, ["-e", script], {
        cwd: ROOT,
        encoding: "utf8",
        timeout: 60_000,
      });
      const thrown = JSON.parse(run.stdout) as { message: string; stack: string; run: boolean };
      expect(thrown).toEqual({ message: message("20.20.2"), stack: message("20.20.2"), run: true });
    });
  }

  for (const [what, entry] of BINS) {
    it(`${what} prints that one line on stderr and exits 1 under Node 20`, () => {
      const run = load(entry, "20.20.2");
      expect(run.stdout).not.toContain("loaded");
      expect(run.status).toBe(1);
      expect(run.stderr).toBe(`${message("20.20.2")}\n`);
    });
  }

  it("the package root loads on the floor itself", () => {
    const run = load("dist/provider/index.js", NODE_FLOOR);
    expect(run.stderr).toBe("");
    expect(run.stdout.trim()).toBe("loaded");
  });
});
