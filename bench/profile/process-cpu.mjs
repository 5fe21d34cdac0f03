// @ts-check
// CPU seconds of every process below a given one, by role (the CLI and its engine, the language
// host, the program, the provider: the plugin, the dynamic provider host or the native control),
// sampled from /proc every 25 ms until SIGTERM, then written as JSON to OUT. A process's last
// 25 ms before it exits are not counted. bench/engine.mjs --per-process starts one per step.
// Linux only. Usage: node bench/profile/process-cpu.mjs ROOT_PID OUT
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename } from "node:path";

const [rootPid, out] = process.argv.slice(2);
if (!rootPid || !out) {
  console.error("usage: node bench/profile/process-cpu.mjs ROOT_PID OUT");
  process.exit(2);
}
const TICKS = 100; // USER_HZ on Linux

/** The role of a process from its command line. @param {string[]} argv */
function roleOf(argv) {
  const line = argv.join(" ");
  if (line.includes("emulator/cli.js")) return "emulator";
  if (line.includes("pulumi-resource-platformnative")) return "provider";
  if (line.includes("pulumi-resource-platform") || line.includes("plugin/main.js")) return "provider";
  if (line.includes("dynamic-provider")) return "provider";
  if (line.includes("pulumi-language-")) return "language host";
  if (line.includes("cmd/run")) return "program";
  if (basename(argv[0] ?? "") === "pulumi") return "engine";
  return "other";
}

/** The command line of a process (none when it is gone). @param {number} pid */
function commandLine(pid) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
  } catch {
    return [];
  }
}

/** @type {Map<string, { role: string; cpu: number }>} by pid and start time */
const seen = new Map();

function sample() {
  /** @type {Map<number, { ppid: number; key: string; cpu: number }>} */
  const procs = new Map();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const fields = readFileSync(`/proc/${name}/stat`, "utf8").split(") ").pop()?.split(" ") ?? [];
      const cpu = (Number(fields[11]) + Number(fields[12])) / TICKS;
      procs.set(Number(name), { ppid: Number(fields[1]), key: `${name}@${fields[19]}`, cpu });
    } catch {
      // gone between the listing and the read
    }
  }
  for (const [pid, p] of procs) {
    if (pid === process.pid) continue;
    let up = p.ppid;
    while (up > 1 && String(up) !== rootPid) up = procs.get(up)?.ppid ?? 0;
    if (String(up) !== rootPid) continue;
    // The command line is read at every sample: a child shows its parent's (the engine's, the
    // language host's) until it calls exec.
    const argv = commandLine(pid);
    const role = argv.length > 0 ? roleOf(argv) : (seen.get(p.key)?.role ?? "other");
    seen.set(p.key, { role, cpu: p.cpu });
  }
}

const timer = setInterval(sample, 25);
process.on("SIGTERM", () => {
  clearInterval(timer);
  sample();
  /** @type {Record<string, number>} */
  const byRole = {};
  for (const { role, cpu } of seen.values()) byRole[role] = (byRole[role] ?? 0) + cpu;
  writeFileSync(out, JSON.stringify(byRole));
  process.exit(0);
});
sample();
process.stdout.write("ready\n");
