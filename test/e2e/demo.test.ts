import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

// `npm run demo` is the README's first command: it must keep working end to end, exit non-zero on
// failure, and never leave a process, a socket or a temp directory behind (also on Ctrl-C).

const repoRoot = path.resolve(__dirname, "..", "..");

function demoLeftovers(): string[] {
  const temp = fs.readdirSync(os.tmpdir()).filter((n) => n.startsWith("pulumi-platform-demo-"));
  const root = fs.readdirSync(repoRoot).filter((n) => /^Pulumi\.demo(-\d+)?\.yaml$/.test(n));
  return [...temp, ...root];
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function runDemo(onOutput?: (text: string, child: ReturnType<typeof spawn>) => void, args: string[] = []) {
  const child = spawn(process.execPath, [path.join(repoRoot, "scripts", "demo.js"), ...args], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PATH: [path.join(repoRoot, "node_modules", ".bin"), process.env.PATH ?? ""].join(path.delimiter),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const collect = (d: Buffer) => {
    output += d;
    onOutput?.(output, child);
  };
  child.stdout.on("data", collect);
  child.stderr.on("data", collect);
  return new Promise<{ code: number | null; output: string }>((resolve) =>
    child.once("exit", (code) => resolve({ code, output })),
  );
}

describe("npm run demo", () => {
  it("runs the quickstart through the real CLI from preview to destroy and cleans up", async () => {
    const before = demoLeftovers();
    const { code, output } = await runDemo();
    expect(code, output.slice(-3000)).toBe(0);
    for (const line of [
      "==> Starting the platform emulator",
      "$ pulumi preview",
      "$ pulumi up --yes --skip-preview",
      "==> DNS records each certificate still needs",
      "*.demo.example.com: pending_validation → active",
      "api.demo.example.com: pending_ownership → active",
      "$ pulumi refresh --yes --skip-preview --run-program",
      "dataVolume: sizeGb 10, needsRestart true",
      "$ pulumi destroy --yes --skip-preview",
      "the emulator holds no volumes and no certificates",
      "emulator stopped, temp files removed",
    ]) {
      expect(output).toContain(line);
    }
    expect(output).toMatch(/password\s*:\s*\[secret\]/);
    const pid = Number(/\(pid (\d+)\)/.exec(output)?.[1]);
    expect(pid).toBeGreaterThan(0);
    expect(isAlive(pid)).toBe(false);
    expect(demoLeftovers()).toEqual(before);
  });

  it("runs the same against the emulator's sparse answers (what the real platform may leave out)", async () => {
    const { code, output } = await runDemo(undefined, ["--responses", "sparse"]);
    expect(code, output.slice(-3000)).toBe(0);
    for (const line of [
      "sparse answers: members the real platform may leave out or null are left out or null",
      "*.demo.example.com: pending_validation → active",
      "api.demo.example.com: pending_ownership → active",
      "dataVolume: sizeGb 10, needsRestart true",
      "the emulator holds no volumes and no certificates",
    ]) {
      expect(output).toContain(line);
    }
  });

  it("on Ctrl-C stops the emulator, removes its files and exits non-zero", async () => {
    const before = demoLeftovers();
    let sent = false;
    const { code, output } = await runDemo((text, child) => {
      if (!sent && text.includes("$ pulumi preview")) {
        sent = true;
        child.kill("SIGINT");
      }
    });
    expect(sent, output).toBe(true);
    expect(code).toBe(130);
    const pid = Number(/\(pid (\d+)\)/.exec(output)?.[1]);
    expect(isAlive(pid)).toBe(false);
    expect(demoLeftovers()).toEqual(before);
  });
});
