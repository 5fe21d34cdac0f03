import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

// The engine ends the plugin with SIGINT or SIGKILL, and Node writes its compile cache only at a
// clean exit: the plugin writes it itself once it serves, so the next command starts faster.

const PLUGIN = path.resolve(__dirname, "../../../dist/provider/plugin/main.js");

/** The files in `dir` and below. */
function files(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => fs.statSync(path.join(dir, f)).isFile());
}

describe("the plugin's compile cache", () => {
  it("is on disk after a SIGKILL that follows the port line", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "plugin-cc-"));
    try {
      const env: NodeJS.ProcessEnv = { ...process.env, NODE_COMPILE_CACHE: dir };
      delete env.NODE_DISABLE_COMPILE_CACHE;
      const plugin = spawn(process.execPath, [PLUGIN], { stdio: ["ignore", "pipe", "inherit"], env });
      await new Promise((resolve) => plugin.stdout.once("data", resolve));
      // The write follows the port line by a tick; give it a moment, then kill as the engine may.
      const deadline = Date.now() + 5_000;
      while (files(dir).length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      plugin.kill("SIGKILL");
      await new Promise((resolve) => plugin.once("exit", resolve));
      expect(files(dir).length).toBeGreaterThan(10);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
