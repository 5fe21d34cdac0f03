// Benchmark: what a Volume costs the real Pulumi engine, next to a native provider doing the same
// requests and to a no-op dynamic resource whose `create` returns its inputs. Same CLI
// (scripts/lib/pulumi-engine.js), same Node, a file backend per stack, the emulator on loopback in
// its own process. Rounds are interleaved (volume, native, no-op, ..., then reversed) because the
// machine is shared; medians printed.
//
// What it prints (`npm run bench -- engine`):
// - up / preview (no change) / refresh / destroy of N resources per kind, at every N and every
//   API latency (0 and 50 ms: the emulator's latency fault on every request; the no-op controls
//   wait as long per operation), with the medians and the ratios Volume/native and Volume/no-op
//   (wall and CPU), and the two doors' ratios to native;
// - a small stack (N = 1 and 5), Volume vs native: up, `pulumi preview`, up again with no change,
//   refresh, destroy (wall time; up never previews, `pulumi up` without --skip-preview is about
//   preview + up);
// - a mixed program (volumes, ACME and custom certificates, password rotations, then a rotating
//   `up`) against as many no-ops;
// - CPU seconds per step, checkpoint size per resource, and the requests the platform received
//   per kind and step, by method and route (from the emulator's request log).
//
// Kinds (`--kinds`): `volume` (ours); `native`, a Go provider (bench/native, pulumi-go-provider)
// whose create, read and delete each make one request, built on first use into
// ~/.cache/pulumi-platform/bench-native-<hash of its sources>/ and put on the CLI's PATH; `noop`;
// `fat`, a no-op with a Volume's state size (outputs and serialized provider padded to the
// Volume's length); `io`, `fat` plus one plain fetch per operation, so Volume/io is what our code
// adds to any real resource's I/O. The programs are files in bench/programs/<kind>/, copied into
// a directory under bench/results/ (inside the repository, so `pulumi-platform` resolves as
// installed) with their stacks' config.
//
// Run `npm run build` first (`npm run bench` does; `npm run bench -- engine` runs only this one).
// Flags (env for `npm run bench`): --n 5,100,500 (BENCH_ENGINE_N)  --rounds 3 (BENCH_ENGINE_ROUNDS)
// --latency 0,50  --small 1,5  --rows basic,small,mixed  --kinds volume,native,noop,fat,io
// --profile DIR (one round; CPU profiles of the Node processes the CLI spawns, of the engine (Go
// pprof) and of the emulator into DIR, and provider call counts into DIR/calls-*.json; summarize
// with bench/profile/summarize.mjs)  --per-process (CPU seconds of each process of a step by
// role: engine, language host, program, provider; sampled from /proc by
// bench/profile/process-cpu.mjs, Linux only)  --keep-programs (keep the work directory).
import { execFileSync, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { homedir, tmpdir } from "node:os";
import { delimiter, dirname, join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { Agent } from "undici";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);
const {
  ensurePulumiCli,
  createOfflineBackend,
  offlineEngineEnv,
} = require("../scripts/lib/pulumi-engine.js");

const { values: flags } = parseArgs({
  options: {
    n: { type: "string", default: process.env.BENCH_ENGINE_N ?? "5,100,500" },
    rounds: { type: "string", default: process.env.BENCH_ENGINE_ROUNDS ?? "3" },
    latency: { type: "string", default: "0,50" },
    small: { type: "string", default: "1,5" },
    rows: { type: "string", default: "basic,small,mixed" },
    kinds: { type: "string", default: "volume,plugin,native,noop,fat,io" },
    profile: { type: "string" },
    "per-process": { type: "boolean", default: false },
    "keep-programs": { type: "boolean", default: false },
  },
});
const numbers = (list) => list.split(",").filter(Boolean).map(Number);
const SIZES = numbers(flags.n);
const LATENCIES = numbers(flags.latency);
const SMALL_SIZES = numbers(flags.small);
const ROUNDS = flags.profile ? 1 : Number(flags.rounds);
const ROWS = new Set(flags.rows.split(","));
const KINDS = flags.kinds.split(",");
const PROFILE_DIR = flags.profile ? resolve(flags.profile) : undefined;
/** The kinds Volume is compared with, in the order of the report's columns. */
const BASELINES = ["native", "noop", "fat", "io"].filter((k) => KINDS.includes(k));
/** The small-stack row: Volume vs native. */
const SMALL_KINDS = ["volume", "plugin", "native", "noop"].filter((k) => KINDS.includes(k));
const NATIVE_PLUGIN = "pulumi-resource-platformnative";

const unknownKinds = KINDS.filter((k) => !["volume", "plugin", ...BASELINES].includes(k));
if (unknownKinds.length > 0 || !KINDS.includes("volume")) {
  console.error(`--kinds: volume and any of plugin, native, noop, fat, io (got ${flags.kinds})`);
  process.exit(2);
}
const emulatorCli = join(root, "dist", "emulator", "cli.js");
if (!existsSync(emulatorCli) || !existsSync(join(root, "dist", "provider", "kinds", "runtime-entry.js"))) {
  console.error("dist/ is missing: run `npm run build` first");
  process.exit(2);
}
if (Number(process.versions.node.split(".")[0]) < 22) {
  console.error(`Node ${process.version}: run with Node 22 (node_modules/.bin/node, as npm run bench does)`);
  process.exit(2);
}
const cliDir = ensurePulumiCli();
const cliVersion = execFileSync(join(cliDir, "pulumi"), ["version"], { encoding: "utf8" }).trim();
const log = (line) => process.stderr.write(`engine bench: ${line}\n`);

// ---------------------------------------------------------------------------------------------
// The native control: built once per version of its sources, outside the repository.

/**
 * The directory holding the native control's plugin binary, building it when missing (into a
 * staging directory renamed into place once complete, as scripts/ensure-pulumi does).
 */
async function ensureNativeProvider() {
  const sources = join(root, "bench", "native");
  const hash = createHash("sha256");
  for (const file of ["go.mod", "go.sum", "main.go"])
    hash
      .update(`${file}\0`)
      .update(readFileSync(join(sources, file)))
      .update("\0");
  const cacheRoot =
    process.env.PULUMI_PLATFORM_CACHE ??
    join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "pulumi-platform");
  const dir = join(cacheRoot, `bench-native-${hash.digest("hex").slice(0, 16)}`);
  if (existsSync(join(dir, NATIVE_PLUGIN))) return dir;

  mkdirSync(cacheRoot, { recursive: true });
  const staging = mkdtempSync(join(cacheRoot, ".staging-bench-native-"));
  log(`building the native control (bench/native) into ${dir}; the first build takes minutes`);
  const t0 = performance.now();
  const elapsed = () => `${Math.round((performance.now() - t0) / 1000)} s`;
  try {
    await new Promise((resolvePromise, reject) => {
      // -v names each package as it is compiled (cached ones are not): the progress.
      const child = spawn("go", ["build", "-v", "-o", join(staging, NATIVE_PLUGIN), "."], {
        cwd: sources,
        stdio: ["ignore", "inherit", "pipe"],
      });
      let compiled = 0;
      let last = "";
      const errors = [];
      createInterface({ input: child.stderr }).on("line", (line) => {
        if (line.startsWith("go: ")) log(line);
        else if (/^[\w.\-/]+$/.test(line)) {
          compiled++;
          last = line;
        } else errors.push(line);
      });
      const timer = setInterval(
        () => log(`… ${compiled} packages compiled in ${elapsed()} (last: ${last})`),
        15_000,
      );
      child.once("error", (err) => {
        clearInterval(timer);
        reject(err.code === "ENOENT" ? new Error("no `go` on PATH") : err);
      });
      child.once("exit", (code) => {
        clearInterval(timer);
        if (code === 0) return resolvePromise(compiled);
        reject(new Error(errors.join("\n") || `go build exited with ${code}`));
      });
    });
  } catch (err) {
    rmSync(staging, { recursive: true, force: true });
    throw new Error(
      `the native control (bench/native) did not build: ${err.message}\nLeave it out with --kinds volume,noop,fat,io`,
    );
  }
  try {
    renameSync(staging, dir);
  } catch (err) {
    // Another bench built it first.
    rmSync(staging, { recursive: true, force: true });
    if (!existsSync(join(dir, NATIVE_PLUGIN))) throw err;
  }
  log(`built the native control in ${elapsed()}`);
  return dir;
}

// ---------------------------------------------------------------------------------------------

const workRoot = join(root, "bench", "results");
mkdirSync(workRoot, { recursive: true });
const workDir = mkdtempSync(join(workRoot, "engine-"));
const stacks = [];
let emulator;
let nativeDir;

/** Copies bench/programs into the work directory and installs the io program's package. */
function installPrograms() {
  cpSync(join(root, "bench", "programs"), workDir, { recursive: true });
  // A package of the program's own, as pulumi-platform is: the serialized provider requires it.
  const pkg = join(workDir, "io", "node_modules", "bench-io");
  mkdirSync(pkg, { recursive: true });
  cpSync(join(workDir, "io", "bench-io.js"), join(pkg, "index.js"));
}

async function startEmulator(extraNodeArgs = []) {
  const seed = join(workDir, "seed.json");
  const users = Array.from({ length: Math.max(...SIZES, ...SMALL_SIZES) }, (_, i) => `bench_user_${i}`);
  writeFileSync(seed, JSON.stringify({ postgres: [{ name: "demo-pg", users }] }));
  const child = spawn(
    process.execPath,
    [
      ...extraNodeArgs,
      emulatorCli,
      "--port",
      "0",
      "--quiet",
      "--seed",
      seed,
      "--task-socket",
      join(mkdtempSync(join(tmpdir(), "engine-bench-")), "api.sock"),
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const start = await new Promise((resolvePromise, reject) => {
    createInterface({ input: child.stdout }).once("line", (line) => resolvePromise(JSON.parse(line)));
    child.once("exit", (code) => reject(new Error(`emulator exited with ${code}`)));
  });
  // One connection per call (no keep-alive): the emulator may close an idle pooled socket
  // between rounds, just as the next call picks it up.
  const { createControlClient } = require("pulumi-platform/emulator");
  const control = createControlClient(start.url, start.token, { dispatcher: new Agent({ pipelining: 0 }) });
  const stop = () =>
    new Promise((resolvePromise) => {
      if (child.exitCode !== null) return resolvePromise();
      child.once("exit", resolvePromise);
      child.kill("SIGINT");
    });
  return { ...start, child, control, stop };
}

/** The platform's address and token, as each kind's provider reads them. */
const platformConfig = (kind) =>
  kind === "native"
    ? { "platformnative:apiUrl": emulator.url, "platformnative:apiToken": emulator.token }
    : { "platform:apiUrl": emulator.url, "platform:apiToken": emulator.token };

/** A stack of `kind` with `config`, on its own file backend. */
function createStack(kind, name, config) {
  const programDir = join(workDir, kind);
  const backend = createOfflineBackend("bench");
  const env = { ...process.env, ...offlineEngineEnv(backend, cliDir) };
  for (const key of ["PLATFORM_API_TOKEN", "PLATFORM_API_URL", "PULUMI_ACCESS_TOKEN", "NODE_OPTIONS"])
    delete env[key];
  // The engine finds a plugin that is not installed on PATH (it warns that it does so).
  if (kind === "native") env.PATH = `${nativeDir}${delimiter}${env.PATH}`;
  /** The CLI with `args` as given; `pulumi` adds the stack. */
  const cli = (args, extraEnv = {}, timeFile = undefined) =>
    execFileSync(
      timeFile ? TIME : join(cliDir, "pulumi"),
      [...(timeFile ? ["-f", "%U %S", "-o", timeFile, join(cliDir, "pulumi")] : []), ...args],
      {
        cwd: programDir,
        env: { ...env, ...extraEnv },
        encoding: "utf8",
        maxBuffer: 256 * 1024 * 1024,
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
  const pulumi = (args, extraEnv = {}, timeFile = undefined) =>
    cli([...args, "--stack", name, "--non-interactive"], extraEnv, timeFile);
  cli(["stack", "init", name, "--non-interactive"]);
  const stack = { kind, name, cli, pulumi, backend, programDir, config: {} };
  setConfig(stack, { ...platformConfig(kind), ...config });
  stacks.push(stack);
  return stack;
}

/** Sets the stack's config values that differ from what it has. */
function setConfig(stack, config) {
  for (const [key, value] of Object.entries(config)) {
    if (stack.config[key] === String(value)) continue;
    const secret = key.endsWith(":apiToken") ? ["--secret"] : [];
    // After `--`: an emulator token may start with "-".
    stack.cli([
      "config",
      "set",
      ...secret,
      "--stack",
      stack.name,
      "--non-interactive",
      "--",
      key,
      String(value),
    ]);
    stack.config[key] = String(value);
  }
}

function profileEnv(label) {
  if (!PROFILE_DIR) return {};
  const dir = join(PROFILE_DIR, label);
  mkdirSync(dir, { recursive: true });
  return {
    NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${dir} --require ${join(root, "bench", "profile", "count-calls.cjs")}`,
    BENCH_COUNT_CALLS_FILE: join(PROFILE_DIR, `calls-${label}.json`),
  };
}

// CPU seconds of the CLI and every process it waited for (engine, language host, program,
// provider host or plugin) come from GNU time when installed; the emulator's from /proc.
const TIME = existsSync("/usr/bin/time") ? "/usr/bin/time" : undefined;
const cpuOf = (pid) => {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
};

/** A path of the remote API as its route: `/v1/apps/demo-app/volumes/vol_1` → `/v1/apps/{app}/volumes/{id}`. */
const PATH_PARAMETERS = {
  apps: "{app}",
  volumes: "{id}",
  snapshots: "{id}",
  certificates: "{hostname}",
  postgres: "{cluster}",
  users: "{user}",
};
function routeOf(path) {
  const segments = path.split("/");
  for (let i = 1; i < segments.length; i++) {
    const parameter = PATH_PARAMETERS[segments[i - 1]];
    const fixed = segments[i - 1] === "certificates" && (segments[i] === "acme" || segments[i] === "custom");
    if (parameter && !fixed) segments[i] = parameter;
  }
  return segments.join("/");
}

/** `POST /v1/apps/{app}/volumes: 100, GET …: 100` for the requests the emulator logged. */
function requestCounts(requests) {
  const counts = new Map();
  for (const r of requests) {
    const key = `${r.method} ${routeOf(r.path)}${r.status >= 400 || r.status === 0 ? ` (${r.status})` : ""}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  // The emulator keeps the last 10,000 requests.
  const full = requests.length >= 10_000 ? " (log full: at least)" : "";
  const sorted = [...counts].sort(([a], [b]) => a.localeCompare(b));
  return counts.size === 0 ? "none" : sorted.map(([key, count]) => `${key}: ${count}`).join(", ") + full;
}

const STEP_ARGS = {
  up: ["up", "--yes", "--skip-preview"],
  "up-again": ["up", "--yes", "--skip-preview"],
  preview: ["preview"],
  refresh: ["refresh", "--yes", "--skip-preview"],
  destroy: ["destroy", "--yes", "--skip-preview"],
};

/** The roles bench/profile/process-cpu.mjs reports, in the order of the per-process table. */
const PROCESS_ROLES = ["engine", "language host", "program", "provider"];

/**
 * Starts sampling the CPU of this process's children by role (--per-process); `stop` answers
 * their CPU seconds by role once the step ran.
 */
async function sampleProcessCpu() {
  const out = join(workDir, "process-cpu.json");
  const child = spawn(
    process.execPath,
    [join(root, "bench", "profile", "process-cpu.mjs"), String(process.pid), out],
    {
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  await new Promise((resolve, reject) => {
    child.once("error", reject);
    createInterface({ input: child.stdout }).once("line", resolve);
  });
  return {
    async stop() {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
      return JSON.parse(readFileSync(out, "utf8"));
    },
  };
}

/**
 * Runs one engine step: wall-clock seconds, CPU seconds of the CLI's process tree and of the
 * emulator, and the requests the emulator received.
 */
async function step(stack, command, label) {
  const timeFile = TIME ? join(workDir, "time.txt") : undefined;
  await emulator.control.requests.clear();
  const sampler = flags["per-process"] ? await sampleProcessCpu() : undefined;
  const emu0 = cpuOf(emulator.child.pid);
  const t0 = performance.now();
  try {
    const engineProfile = PROFILE_DIR
      ? ["--profiling", join(PROFILE_DIR, `${label}-${command}`, "engine")]
      : [];
    stack.pulumi([...STEP_ARGS[command], ...engineProfile], profileEnv(`${label}-${command}`), timeFile);
  } catch (err) {
    throw new Error(
      `pulumi ${command} of ${stack.name} failed:\n${err.stdout ?? ""}\n${err.stderr ?? err.message}`,
    );
  }
  const wall = (performance.now() - t0) / 1000;
  const byProcess = sampler ? await sampler.stop() : undefined;
  const emulatorCpu = cpuOf(emulator.child.pid) - emu0;
  const cpu = timeFile
    ? readFileSync(timeFile, "utf8")
        .trim()
        .split("\n")
        .pop()
        .split(" ")
        .map(Number)
        .reduce((a, b) => a + b, 0)
    : Number.NaN;
  const requests = requestCounts(await emulator.control.requests.list());
  return { wall, cpu, emulatorCpu, requests, byProcess };
}

/** Checkpoint size per resource and the size of one `__provider` text, from `pulumi stack export`. */
function stateSize(stack) {
  const deployment = JSON.parse(stack.pulumi(["stack", "export", "--show-secrets"])).deployment;
  // Not the stack, not the provider resources: the N resources.
  const resources = (deployment.resources ?? []).filter((r) => !r.type.startsWith("pulumi:"));
  const total = JSON.stringify(resources).length;
  const provider = resources[0]?.outputs?.__provider ?? "";
  const outputs = resources[0] ? Object.keys(resources[0].outputs).length - (provider ? 1 : 0) : 0;
  return {
    perResource: Math.round(total / Math.max(1, resources.length)),
    provider: provider.length,
    outputs,
  };
}

/**
 * Characters to pad a control's (`fat`, `io`) serialized provider with, so that it is as long as
 * the Volume's: the Volume's length (serialized here exactly as the engine does) minus the
 * control's own, measured from a stack of one resource without padding.
 */
async function controlPadding(kind) {
  // The Volume's provider text is written by hand (provider/kinds/stubs.ts), not serialized.
  const target = require("../dist/provider/kinds/stubs.js").stubTexts.volume.length;
  const probe = createStack(kind, `${kind}-probe`, { n: 1 });
  await step(probe, "up", `${kind}-probe`);
  const own = stateSize(probe).provider;
  await step(probe, "destroy", `${kind}-probe`);
  // The probe already captures `pad: ""`: every padding character adds one to the text.
  return Math.max(0, target - own);
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

// ---------------------------------------------------------------------------------------------

const results = []; // { row, n, latency, step, kind, seconds[], cpu[], emulatorCpu[], requests[] }
const find = (row, n, latency, stepName, kind) =>
  results.find(
    (x) => x.row === row && x.n === n && x.latency === latency && x.step === stepName && x.kind === kind,
  );
function record(row, n, latency, stepName, kind, measured) {
  let r = find(row, n, latency, stepName, kind);
  if (!r) {
    r = {
      row,
      n,
      latency,
      step: stepName,
      kind,
      seconds: [],
      cpu: [],
      emulatorCpu: [],
      requests: [],
      byProcess: [],
    };
    results.push(r);
  }
  r.seconds.push(measured.wall);
  r.cpu.push(measured.cpu);
  r.emulatorCpu.push(measured.emulatorCpu);
  r.requests.push(measured.requests);
  if (measured.byProcess) r.byProcess.push(measured.byProcess);
}

/** Runs `body` with `latencyMs` added to every API request (the emulator's latency fault). */
async function withLatency(latencyMs, body) {
  if (latencyMs > 0) await emulator.control.faults.add({ kind: "latency", latencyMs, times: 0 });
  try {
    await body();
  } finally {
    if (latencyMs > 0) await emulator.control.faults.clear();
  }
}

async function main() {
  if (KINDS.includes("native")) nativeDir = await ensureNativeProvider();
  installPrograms();
  if (ROWS.has("mixed")) {
    const { makeCerts } = await import("./profile/certs.mjs");
    const part = Math.floor(Math.max(...SIZES) / 5);
    writeFileSync(
      join(workDir, "mixed", "certs.json"),
      JSON.stringify([await makeCerts(part, "c"), await makeCerts(part, "c")]),
    );
  }
  const emuArgs = PROFILE_DIR ? ["--cpu-prof", `--cpu-prof-dir=${join(PROFILE_DIR, "emulator")}`] : [];
  emulator = await startEmulator(emuArgs);
  writeFileSync(
    join(workDir, "io", "node_modules", "bench-io", "target.json"),
    JSON.stringify({ url: emulator.url, token: emulator.token }),
  );
  const padChars = {
    fat: KINDS.includes("fat") && ROWS.has("basic") ? await controlPadding("fat") : 0,
    io: KINDS.includes("io") && ROWS.has("basic") ? await controlPadding("io") : 0,
  };
  console.log(
    `engine bench: ${cliVersion}, Node ${process.version}, file backend, N = ${SIZES.join(", ")}, latency ${LATENCIES.join(", ")} ms, ${ROUNDS} interleaved round(s)${PROFILE_DIR ? `, profiles in ${PROFILE_DIR}` : ""}`,
  );

  const states = [];
  const order = (round, xs) => (round % 2 === 0 ? xs : [...xs].reverse());

  if (ROWS.has("small")) {
    const small = SMALL_SIZES.flatMap((n) =>
      SMALL_KINDS.map((kind) => createStack(kind, `${kind}-small-${n}`, { n })),
    );
    for (let round = 0; round < ROUNDS; round++) {
      for (const s of order(round, small)) {
        const n = Number(s.config.n);
        for (const command of ["up", "preview", "up-again", "refresh", "destroy"])
          record("small", n, 0, command, s.kind, await step(s, command, s.name));
        process.stderr.write(".");
      }
    }
    process.stderr.write("\n");
  }

  for (const n of SIZES) {
    const basic = ROWS.has("basic")
      ? KINDS.map((kind) =>
          createStack(kind, `${kind}-${n}`, { n, ...(padChars[kind] ? { padChars: padChars[kind] } : {}) }),
        )
      : [];
    const mixed = ROWS.has("mixed")
      ? [createStack("mixed", `mixed-${n}`, { n }), createStack("mixed-noop", `mixed-noop-${n}`, { n })]
      : [];
    for (let round = 0; round < ROUNDS; round++) {
      for (const latency of order(round, LATENCIES)) {
        await withLatency(latency, async () => {
          for (const s of order(round, basic)) {
            // The no-op controls wait per operation as long as the platform does per request.
            if (s.kind === "noop" || s.kind === "fat") setConfig(s, { sleepMs: latency });
            const label = `${s.name}-${latency}ms`;
            record("basic", n, latency, "up", s.kind, await step(s, "up", label));
            if (round === 0 && latency === LATENCIES[0]) states.push({ n, kind: s.kind, ...stateSize(s) });
            record("basic", n, latency, "preview", s.kind, await step(s, "preview", label));
            record("basic", n, latency, "refresh", s.kind, await step(s, "refresh", label));
            record("basic", n, latency, "destroy", s.kind, await step(s, "destroy", label));
            process.stderr.write(".");
          }
        });
      }
      for (const s of order(round, mixed)) {
        const kind = s.kind === "mixed" ? "volume" : "noop";
        record("mixed", n, 0, "up", kind, await step(s, "up", s.name));
        record("mixed", n, 0, "refresh", kind, await step(s, "refresh", s.name));
        setConfig(s, { generation: 2 });
        record("mixed", n, 0, "rotate", kind, await step(s, "up", `${s.name}-rotate`));
        record("mixed", n, 0, "destroy", kind, await step(s, "destroy", s.name));
        setConfig(s, { generation: 1 });
        process.stderr.write(".");
      }
    }
    process.stderr.write("\n");
  }
  report(states);
}

// ---------------------------------------------------------------------------------------------
// Report.

const fmt = (x) => (x === undefined || Number.isNaN(x) ? "-" : x.toFixed(2));
const ratio = (a, b) => (a !== undefined && b ? fmt(a / b) : "-");
const wallOf = (r) => (r ? median(r.seconds) : undefined);
// CPU seconds of a step: the CLI's process tree plus the emulator. Less disturbed than wall time
// by other work on a shared machine.
const cpuOfStep = (r) => (r ? median(r.cpu.map((c, i) => c + (r.emulatorCpu[i] || 0))) : undefined);
const KIND_NAMES = {
  volume: "Volume",
  plugin: "plugin",
  native: "native",
  noop: "no-op",
  fat: "fat",
  io: "io",
};
const STEP_NAMES = { "up-again": "up (no change)" };

/** The two doors side by side: the dynamic Volume and the plugin's, each over native (wall s). */
function doorsReport() {
  const lines = [
    "",
    "Doors: dynamic Volume and plugin Volume (pulumi-resource-platform) over native, wall and CPU (CLI tree and emulator):",
    "| row | N | latency | step | dynamic s | plugin s | native s | **dynamic/native** | **plugin/native** | CPU dynamic/native | **CPU plugin/native** |",
    "|---|---|---|---|---|---|---|---|---|---|---|",
  ];
  const rows = [
    ...(ROWS.has("small") ? SMALL_SIZES.map((n) => ["small", n, 0]) : []),
    ...(ROWS.has("basic") ? SIZES.flatMap((n) => LATENCIES.map((l) => ["basic", n, l])) : []),
  ];
  for (const [row, n, latency] of rows)
    for (const stepName of ["up", "preview", "up-again", "refresh", "destroy"]) {
      const found = ["volume", "plugin", "native"].map((k) => find(row, n, latency, stepName, k));
      const [d, p, o] = found.map(wallOf);
      const [dc, pc, oc] = found.map(cpuOfStep);
      if (d === undefined && p === undefined) continue;
      lines.push(
        `| ${row} | ${n} | ${latency} ms | ${STEP_NAMES[stepName] ?? stepName} | ${fmt(d)} | ${fmt(p)} | ${fmt(o)} | **${ratio(d, o)}** | **${ratio(p, o)}** | ${ratio(dc, oc)} | **${ratio(pc, oc)}** |`,
      );
    }
  return lines;
}

/** CPU seconds of each process of a step by role (--per-process), medians, every row and kind. */
function processReport() {
  const lines = [
    "",
    `CPU seconds by process (medians, sampled every 25 ms): ${PROCESS_ROLES.join(" / ")}`,
    "| row | N | latency | step | kind | by process | CLI tree |",
    "|---|---|---|---|---|---|---|",
  ];
  for (const r of results) {
    if (r.byProcess.length === 0) continue;
    const roles = PROCESS_ROLES.map((role) => fmt(median(r.byProcess.map((b) => b[role] ?? 0))));
    lines.push(
      `| ${r.row} | ${r.n} | ${r.latency} ms | ${STEP_NAMES[r.step] ?? r.step} | ${r.kind} | ${roles.join(" / ")} | ${fmt(median(r.cpu))} |`,
    );
  }
  return lines;
}

function report(states) {
  const lines = [];
  if (ROWS.has("basic")) {
    // The ratios users ask about: Volume/native and Volume/no-op.
    const bold = (k, x) => (k === "native" || k === "noop" ? `**${x}**` : x);
    lines.push(
      "",
      `| N | latency | step | Volume s |${BASELINES.map((k) => ` ${KIND_NAMES[k]} s | Volume/${KIND_NAMES[k]} | CPU Volume/${KIND_NAMES[k]} |`).join("")}`,
      `|---|---|---|---|${BASELINES.map(() => "---|---|---|").join("")}`,
    );
    for (const n of SIZES)
      for (const latency of LATENCIES)
        for (const stepName of ["up", "preview", "refresh", "destroy"]) {
          const v = find("basic", n, latency, stepName, "volume");
          if (!v) continue;
          const cells = BASELINES.map((k) => {
            const o = find("basic", n, latency, stepName, k);
            return ` ${fmt(wallOf(o))} | ${bold(k, ratio(wallOf(v), wallOf(o)))} | ${ratio(cpuOfStep(v), cpuOfStep(o))} |`;
          });
          lines.push(`| ${n} | ${latency} ms | ${stepName} | ${fmt(wallOf(v))} |${cells.join("")}`);
        }
  }
  if (ROWS.has("small") && SMALL_KINDS.includes("volume") && SMALL_KINDS.includes("native")) {
    // The no-op control is what any dynamic resource costs: the provider host and the engine.
    const noop = SMALL_KINDS.includes("noop");
    lines.push(
      "",
      "Small stacks (wall s; up never previews):",
      `| N | step | Volume s | native s | **Volume/native** | CPU Volume/native |${noop ? " no-op s | Volume/no-op |" : ""}`,
      `|---|---|---|---|---|---|${noop ? "---|---|" : ""}`,
    );
    for (const n of SMALL_SIZES)
      for (const stepName of ["up", "preview", "up-again", "refresh", "destroy"]) {
        const v = find("small", n, 0, stepName, "volume");
        const o = find("small", n, 0, stepName, "native");
        const z = noop ? find("small", n, 0, stepName, "noop") : undefined;
        lines.push(
          `| ${n} | ${STEP_NAMES[stepName] ?? stepName} | ${fmt(wallOf(v))} | ${fmt(wallOf(o))} | **${ratio(wallOf(v), wallOf(o))}** | ${ratio(cpuOfStep(v), cpuOfStep(o))} |${noop ? ` ${fmt(wallOf(z))} | ${ratio(wallOf(v), wallOf(z))} |` : ""}`,
        );
      }
  }
  if (ROWS.has("mixed")) {
    lines.push(
      "",
      "Mixed program (volumes, ACME and custom certificates, password rotations) vs as many no-ops:",
      "| N | step | mixed s | no-op s | **ratio** | CPU ratio |",
      "|---|---|---|---|---|---|",
    );
    for (const n of SIZES)
      for (const stepName of ["up", "refresh", "rotate", "destroy"]) {
        const v = find("mixed", n, 0, stepName, "volume");
        const o = find("mixed", n, 0, stepName, "noop");
        if (v)
          lines.push(
            `| ${n} | ${stepName} | ${fmt(wallOf(v))} | ${fmt(wallOf(o))} | **${ratio(wallOf(v), wallOf(o))}** | ${ratio(cpuOfStep(v), cpuOfStep(o))} |`,
          );
      }
  }
  if (KINDS.includes("plugin") && KINDS.includes("native")) lines.push(...doorsReport());
  console.log(lines.join("\n"));

  // Where the CPU went: the CLI's process tree (engine, program, provider host or plugin) and the emulator.
  if (ROWS.has("basic")) {
    const cpuLines = [
      "",
      "CPU seconds per step (medians; CLI tree = engine, language host, program, provider host or plugin):",
      `| N | latency | step | ${KINDS.map((k) => `${k} CLI tree | ${k} emulator`).join(" | ")} |`,
      `|---|---|---|${KINDS.map(() => "---|---").join("|")}|`,
    ];
    for (const n of SIZES)
      for (const latency of LATENCIES)
        for (const stepName of ["up", "preview", "refresh", "destroy"]) {
          const cells = KINDS.map((kind) => {
            const r = find("basic", n, latency, stepName, kind);
            return r ? `${fmt(median(r.cpu))} | ${fmt(median(r.emulatorCpu))}` : "- | -";
          });
          if (cells.some((c) => c !== "- | -"))
            cpuLines.push(`| ${n} | ${latency} ms | ${stepName} | ${cells.join(" | ")} |`);
        }
    console.log(cpuLines.join("\n"));
  }
  if (flags["per-process"]) console.log(processReport().join("\n"));
  if (states.length > 0) {
    console.log("\ncheckpoint per resource (stack export, bytes) / __provider text (chars) / outputs:");
    for (const s of states)
      console.log(`  N=${s.n} ${s.kind}: ${s.perResource} B / ${s.provider} / ${s.outputs}`);
  }

  // What the platform received; the same in every round and at every latency unless noted.
  console.log("\nrequests the platform received per step (method route: count):");
  const seen = new Set();
  for (const r of results) {
    const key = `${r.row}|${r.n}|${r.step}|${r.kind}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const all = results
      .filter((x) => `${x.row}|${x.n}|${x.step}|${x.kind}` === key)
      .flatMap((x) => x.requests.map((requests) => ({ latency: x.latency, requests })));
    const first = all[0].requests;
    const other = all.filter((x) => x.requests !== first).map((x) => `at ${x.latency} ms: ${x.requests}`);
    const row = r.row === "basic" ? "" : `${r.row} `;
    console.log(
      `  ${row}N=${r.n} ${STEP_NAMES[r.step] ?? r.step} ${r.kind}: ${first}${other.length ? ` (also ${[...new Set(other)].join("; ")})` : ""}`,
    );
  }

  const round2 = (xs) => xs.map((x) => +x.toFixed(2));
  console.log(
    `\nraw (row, N, latency ms, step, kind, wall s, CLI-tree CPU s): ${JSON.stringify(results.map((r) => [r.row, r.n, r.latency, r.step, r.kind, round2(r.seconds), round2(r.cpu)]))}`,
  );
}

async function cleanup() {
  for (const s of stacks) {
    try {
      s.pulumi(["destroy", "--yes", "--skip-preview"]);
    } catch {}
    try {
      s.pulumi(["stack", "rm", "--yes", "--force"]);
    } catch {}
    s.backend.remove();
  }
  await emulator?.stop();
  if (!flags["keep-programs"]) rmSync(workDir, { recursive: true, force: true });
}

try {
  await main();
} catch (err) {
  console.error(err.message ?? err);
  process.exitCode = 1;
} finally {
  await cleanup();
}
