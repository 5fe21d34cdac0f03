import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// A SIGKILL of the CLI alone must not leave the plugin running (and creating what nobody will
// record): the plugin ends when the process that started it is gone.

const PLUGIN = path.resolve(__dirname, "../../../dist/provider/plugin/main.js");

/** Running, neither gone nor a zombie waiting for its new parent to reap it. */
function alive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

describe("the plugin without its engine", () => {
  it("ends when the CLI that started it is killed", async () => {
    // A stand-in for the CLI: starts the plugin, prints its pid once the plugin printed its port.
    const cli = spawn(
      process.execPath,
      [
        "-e",
        `const p = require("node:child_process").spawn(process.execPath, [${JSON.stringify(PLUGIN)}], { stdio: ["ignore", "pipe", "inherit"] });
         p.stdout.once("data", () => console.log(p.pid));
         setInterval(() => {}, 1000);`,
      ],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    const plugin = Number(
      await new Promise<string>((resolve) => cli.stdout.once("data", (d) => resolve(String(d)))),
    );
    expect(alive(plugin)).toBe(true);
    cli.kill("SIGKILL");
    while (alive(plugin)) await new Promise((r) => setTimeout(r, 50));
    expect(alive(plugin)).toBe(false);
  });
});
