import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

// The engine ends the plugin with SIGINT or SIGKILL, and Node writes its compile cache only at a
// clean exit: the plugin writes it itself once it serves, so the next command starts faster.

const PLUGIN = path.resolve(__dirname, "../../../dist/provider/plugin/main.js");

/** How many entries `dir` holds, below it included. */
const entries = (dir: string) => fs.readdirSync(dir, { recursive: true }).length;

describe("the plugin's compile cache", () => {
  // From its modules (one entry each), and from its one-file build (the bundle's entry and those
  // of the few modules that choose it).
  it.each([
    ["modules", "0", 10],
    ["one-file build", "1", 3],
  ])("is on disk after a SIGKILL that follows the port line (%s)", async (_, bundle, least) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "plugin-cc-"));
    try {
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        NODE_COMPILE_CACHE: dir,
        PULUMI_PLATFORM_PLUGIN_BUNDLE: bundle,
      };
      delete env.NODE_DISABLE_COMPILE_CACHE;
      const plugin = spawn(process.execPath, [PLUGIN], { stdio: ["ignore", "pipe", "inherit"], env });
      await new Promise((resolve) => plugin.stdout.once("data", resolve));
      // The write follows the port line by a tick: wait until it has settled (10 s at most), then
      // kill as the engine may.
      const deadline = Date.now() + 10_000;
      let last = -1;
      for (;;) {
        await new Promise((r) => setTimeout(r, 250));
        const now = entries(dir);
        if ((now > least && now === last) || Date.now() > deadline) break;
        last = now;
      }
      plugin.kill("SIGKILL");
      await new Promise((resolve) => plugin.once("exit", resolve));
      expect(entries(dir)).toBeGreaterThan(least);
    } finally {
      await fs.promises.rm(dir, { recursive: true, force: true, maxRetries: 5 });
    }
  });
});
