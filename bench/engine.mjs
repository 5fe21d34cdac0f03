// Benchmark: what a Volume costs the real Pulumi engine, next to a no-op dynamic resource whose
// `create` returns its inputs. Same CLI (scripts/lib/pulumi-engine.js), same Node, a file backend
// per stack, programs in plain JavaScript, the emulator on loopback in its own process. Rounds are
// interleaved (volume, no-op, no-op, volume, ...) because the machine is shared; medians printed.
//
// Rows: up / refresh / destroy at each N; `up` with 50 ms added to every API request (emulator
// latency fault) against a no-op that sleeps 50 ms per create; a mixed program (volumes, ACME and
// custom certificates, password rotations, then a rotating `up`) against as many no-ops.
//
// Run `npm run build` first (`npm run bench` does; `npm run bench -- engine` runs only this one).
// Flags (env for `npm run bench`): --n 100,500 (BENCH_ENGINE_N)  --rounds 3 (BENCH_ENGINE_ROUNDS)
// --rows basic,latency,mixed  --kinds volume,noop,fat  --profile DIR (one round; CPU profiles of
// the Node processes the CLI spawns, of the engine (Go pprof) and of the emulator into DIR, and
// provider call counts into DIR/calls-*.json; summarize with bench/profile/summarize.mjs).
// `fat` is the control that separates our code from the engine's cost of a bigger state: a no-op
// whose outputs have a Volume's names and values and whose serialized provider is padded to the
// Volume's length, so its checkpoint is as large as a Volume's. `io` is `fat` plus the least a
// real Volume provider does: one request per create, read and delete (Node's fetch, no
// validation), so Volume/io is what our code adds to any real resource's I/O.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
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
    n: { type: "string", default: process.env.BENCH_ENGINE_N ?? "100,500" },
    rounds: { type: "string", default: process.env.BENCH_ENGINE_ROUNDS ?? "3" },
    rows: { type: "string", default: "basic,latency,mixed" },
    kinds: { type: "string", default: "volume,noop,fat,io" },
    profile: { type: "string" },
    "keep-programs": { type: "boolean", default: false },
  },
});
const SIZES = flags.n.split(",").map(Number);
const ROUNDS = flags.profile ? 1 : Number(flags.rounds);
const ROWS = new Set(flags.rows.split(","));
const KINDS = flags.kinds.split(",");
const PROFILE_DIR = flags.profile ? resolve(flags.profile) : undefined;
const LATENCY_MS = 50;

const emulatorCli = join(root, "dist", "emulator", "cli.js");
if (!existsSync(emulatorCli) || !existsSync(join(root, "dist", "provider", "runtime", "index.js"))) {
  console.error("dist/ is missing: run `npm run build` first");
  process.exit(2);
}
if (Number(process.versions.node.split(".")[0]) < 22) {
  console.error(`Node ${process.version}: run with Node 22 (node_modules/.bin/node, as npm run bench does)`);
  process.exit(2);
}
const cliDir = ensurePulumiCli();
const cliVersion = execFileSync(join(cliDir, "pulumi"), ["version"], { encoding: "utf8" }).trim();

// ---------------------------------------------------------------------------------------------
// Programs (plain JavaScript, inside the repository so `pulumi-platform` resolves as installed).

// The properties a Volume registers (its outputs and inputs), for the controls that mimic it.
const VOLUME_PROPERTIES = JSON.stringify([
  "volumeId",
  "state",
  "zone",
  "attachedMachineId",
  "attachedAllocId",
  "createdAt",
  "blocks",
  "blockSize",
  "blocksFree",
  "blocksAvail",
  "hostDedicationKey",
  "needsRestart",
  "region",
  "sizeGb",
  "encrypted",
  "fstype",
  "autoBackupEnabled",
  "snapshotRetention",
  "snapshotId",
  "sourceVolumeId",
  "machinesOnly",
  "requireUniqueZone",
  "compute",
  "adoptVolumeId",
  "restoreTimeoutSeconds",
]);

/** A control's class: registers a Volume's properties; the program declares n of them. */
const volumeShaped = (type) => `const OUTPUTS = ${VOLUME_PROPERTIES};
class ${type} extends pulumi.dynamic.Resource {
  constructor(name, args) {
    super(provider, name, { ...Object.fromEntries(OUTPUTS.map((k) => [k, undefined])), ...args }, undefined, "bench", "${type}");
  }
}
for (let i = 0; i < n; i++) new ${type}("v" + i, { app: "demo-app", name: "v" + i, region: "ord", sizeGb: 1 });
`;

const PROGRAMS = {
  volume: `
const pulumi = require("@pulumi/pulumi");
const { Volume } = require("pulumi-platform");
const n = new pulumi.Config().requireNumber("n");
for (let i = 0; i < n; i++) new Volume("v" + i, { app: "demo-app", name: "v" + i, region: "ord", sizeGb: 1 });
`,
  // The issue's baseline: a dynamic provider whose create returns its inputs. \`sleepMs\` is
  // captured into the serialized provider (the latency row's no-op sleeps per create).
  noop: `
const pulumi = require("@pulumi/pulumi");
const config = new pulumi.Config();
const n = config.requireNumber("n");
const sleepMs = config.getNumber("sleepMs") || 0;
const provider = {
  async create(inputs) {
    if (sleepMs > 0) await new Promise((resolve) => setTimeout(resolve, sleepMs));
    return { id: inputs.name, outs: inputs };
  },
};
class Noop extends pulumi.dynamic.Resource {
  constructor(name, args) { super(provider, name, args, undefined, "bench", "Noop"); }
}
for (let i = 0; i < n; i++) new Noop("v" + i, { app: "demo-app", name: "v" + i, region: "ord", sizeGb: 1 });
`,
  // Control: a no-op with a Volume's outputs (same names, same kind of values), the same output
  // properties declared by the resource and a serialized provider padded to the Volume's length
  // (\`padChars\`), so its state is as large as a Volume's: Volume/fat is our code's own cost.
  fat: `
const pulumi = require("@pulumi/pulumi");
const config = new pulumi.Config();
const n = config.requireNumber("n");
const pad = "#".repeat(config.getNumber("padChars") || 0);
const provider = {
  async create(inputs) {
    if (pad.length < 0) throw new Error("unreachable: pad is captured into the serialized provider");
    return {
      id: "vol_" + inputs.name,
      outs: {
        app: inputs.app, programInputs: ["name", "region", "sizeGb"], volumeId: "vol_" + inputs.name,
        name: inputs.name, state: "created", sizeGb: inputs.sizeGb, region: inputs.region, zone: "a1b2",
        encrypted: true, attachedMachineId: null, attachedAllocId: null,
        createdAt: new Date().toISOString(), blocks: 0, blockSize: 4096, blocksFree: 0, blocksAvail: 0,
        fstype: "ext4", snapshotRetention: 5, autoBackupEnabled: true, hostDedicationKey: "",
        needsRestart: false,
      },
    };
  },
};
${volumeShaped("Fat")}`,
  // Control: the least a Volume provider can do. Like \`fat\` (same registered properties, same
  // outputs, serialized provider padded to the Volume's length), but create, read and delete each
  // make one request to the emulator with Node's built-in fetch and map the answer without
  // validating it; like the Volume's stub, the serialized provider only requires its code
  // (the program's own package bench-io). Volume/io is what our code adds to any real resource's I/O.
  io: `
const pulumi = require("@pulumi/pulumi");
const config = new pulumi.Config();
const n = config.requireNumber("n");
const pad = "#".repeat(config.getNumber("padChars") || 0);
const provider = {
  async create(inputs) {
    if (pad.length < 0) throw new Error("unreachable: pad is captured into the serialized provider");
    return require("bench-io").create(inputs);
  },
  async read(id, props) { return require("bench-io").read(id, props); },
  async delete(id, props) { return require("bench-io").remove(id, props); },
};
${volumeShaped("Io")}`,
  // Mixed: 40% volumes, 20% ACME, 20% custom certificates, 20% password rotations. \`generation\`
  // rotates every password and re-imports every custom certificate's key (in place).
  mixed: `
const fs = require("node:fs");
const path = require("node:path");
const pulumi = require("@pulumi/pulumi");
const { Volume, AcmeCertificate, CustomCertificate, PostgresPasswordRotation } = require("pulumi-platform");
const config = new pulumi.Config();
const n = config.requireNumber("n");
const generation = config.get("generation") || "1";
const certs = JSON.parse(fs.readFileSync(path.join(__dirname, "certs.json"), "utf8"));
const part = Math.floor(n / 5);
for (let i = 0; i < n - 3 * part; i++) new Volume("v" + i, { app: "demo-app", name: "v" + i, region: "ord", sizeGb: 1 });
for (let i = 0; i < part; i++) new AcmeCertificate("acme" + i, { app: "demo-app", hostname: "a" + i + ".bench.example.com" });
for (let i = 0; i < part; i++) {
  const pem = certs[generation === "1" ? 0 : 1][i];
  new CustomCertificate("custom" + i, { app: "demo-app", hostname: "c" + i + ".bench.example.com", fullchain: pem.cert, privateKey: pulumi.secret(pem.key) });
}
for (let i = 0; i < part; i++) {
  new PostgresPasswordRotation("rot" + i, { clusterId: "demo-pg", username: "bench_user_" + i, triggers: { generation } });
}
`,
  "mixed-noop": `
const pulumi = require("@pulumi/pulumi");
const config = new pulumi.Config();
const n = config.requireNumber("n");
const generation = config.get("generation") || "1";
const provider = {
  async create(inputs) { return { id: inputs.name, outs: inputs }; },
  async update(id, olds, news) { return { outs: news }; },
};
class Noop extends pulumi.dynamic.Resource {
  constructor(name, args) { super(provider, name, args, undefined, "bench", "Noop"); }
}
const part = Math.floor(n / 5);
for (let i = 0; i < n - 2 * part; i++) new Noop("v" + i, { app: "demo-app", name: "v" + i });
for (let i = 0; i < 2 * part; i++) new Noop("r" + i, { app: "demo-app", name: "r" + i, triggers: { generation } });
`,
};

// The `io` control's provider code, loaded by its serialized provider.
const IO_MODULE = `
const t = require("./target.json");
const headers = (t) => ({ authorization: "Bearer " + t.token, accept: "application/json", "content-type": "application/json" });
const path = (app, id) => "/v1/apps/" + app + "/volumes" + (id ? "/" + id : "");
async function call(method, p, body) {
  const res = await fetch(t.url + p, { method, headers: headers(t), body: body && JSON.stringify(body) });
  const json = await res.json();
  if (!res.ok && res.status !== 404) throw new Error(method + " " + p + ": " + res.status + " " + json.error);
  return { status: res.status, json };
}
const outputs = (v, inputs) => ({
  app: inputs.app, programInputs: ["name", "region", "sizeGb"], volumeId: v.id, name: v.name, state: v.state,
  sizeGb: v.size_gb, region: v.region, zone: v.zone, encrypted: v.encrypted,
  attachedMachineId: v.attached_machine_id ?? null, attachedAllocId: v.attached_alloc_id ?? null,
  createdAt: v.created_at, blocks: v.blocks ?? 0, blockSize: v.block_size ?? 0, blocksFree: v.blocks_free ?? 0,
  blocksAvail: v.blocks_avail ?? 0, fstype: v.fstype ?? "", snapshotRetention: v.snapshot_retention,
  autoBackupEnabled: v.auto_backup_enabled, hostDedicationKey: v.host_dedication_key ?? "", needsRestart: false,
});
exports.create = async (inputs) => {
  const { json } = await call("POST", path(inputs.app), { name: inputs.name, region: inputs.region, size_gb: inputs.sizeGb });
  return { id: json.id, outs: outputs(json, inputs) };
};
exports.read = async (id, props) => {
  const { status, json } = await call("GET", path(props.app, id));
  return status === 404 || json.state === "destroyed" ? { id: "", props: {} } : { id, props: outputs(json, props) };
};
exports.remove = async (id, props) => {
  await call("DELETE", path(props.app, id));
};
`;

// ---------------------------------------------------------------------------------------------

const workRoot = join(root, "bench", "results");
mkdirSync(workRoot, { recursive: true });
const workDir = mkdtempSync(join(workRoot, "engine-"));
const stacks = [];
let emulator;

function writeProgram(kind) {
  const dir = join(workDir, kind);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "Pulumi.yaml"), `name: bench-${kind}\nruntime: nodejs\n`);
  writeFileSync(
    join(dir, "package.json"),
    JSON.stringify({ name: `bench-${kind}`, private: true, main: "index.js" }),
  );
  writeFileSync(join(dir, "index.js"), PROGRAMS[kind]);
  if (kind === "io") {
    // A package of the program's own, as pulumi-platform is: the serialized provider requires it.
    const pkg = join(dir, "node_modules", "bench-io");
    mkdirSync(pkg, { recursive: true });
    writeFileSync(join(pkg, "index.js"), IO_MODULE);
  }
  return dir;
}

async function startEmulator(extraNodeArgs = []) {
  const seed = join(workDir, "seed.json");
  const users = Array.from({ length: Math.max(...SIZES) }, (_, i) => `bench_user_${i}`);
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
  const start = await new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).once("line", (line) => resolve(JSON.parse(line)));
    child.once("exit", (code) => reject(new Error(`emulator exited with ${code}`)));
  });
  // One connection per call (no keep-alive): the emulator may close an idle pooled socket
  // between rounds, just as the next call picks it up.
  const { createControlClient } = require("pulumi-platform/emulator");
  const control = createControlClient(start.url, start.token, { dispatcher: new Agent({ pipelining: 0 }) });
  const stop = () =>
    new Promise((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once("exit", resolve);
      child.kill("SIGINT");
    });
  return { ...start, child, control, stop };
}

/** A stack of `kind` with `config`, on its own file backend. */
function createStack(kind, name, config) {
  const programDir = join(workDir, kind);
  const backend = createOfflineBackend("bench");
  const env = { ...process.env, ...offlineEngineEnv(backend, cliDir) };
  for (const key of ["PLATFORM_API_TOKEN", "PLATFORM_API_URL", "PULUMI_ACCESS_TOKEN", "NODE_OPTIONS"])
    delete env[key];
  const pulumi = (args, extraEnv = {}, timeFile = undefined) =>
    execFileSync(
      timeFile ? TIME : join(cliDir, "pulumi"),
      [
        ...(timeFile ? ["-f", "%U %S", "-o", timeFile, join(cliDir, "pulumi")] : []),
        ...args,
        "--stack",
        name,
        "--non-interactive",
      ],
      {
        cwd: programDir,
        env: { ...env, ...extraEnv },
        encoding: "utf8",
        maxBuffer: 256 * 1024 * 1024,
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
  execFileSync(join(cliDir, "pulumi"), ["stack", "init", name, "--non-interactive"], {
    cwd: programDir,
    env,
    stdio: "ignore",
  });
  for (const [key, value] of Object.entries(config)) {
    const secret = key === "platform:apiToken" ? ["--secret"] : [];
    // After `--`: an emulator token may start with "-".
    execFileSync(
      join(cliDir, "pulumi"),
      ["config", "set", ...secret, "--stack", name, "--non-interactive", "--", key, String(value)],
      { cwd: programDir, env, stdio: ["ignore", "pipe", "pipe"] },
    );
  }
  const stack = { kind, name, pulumi, backend, programDir };
  stacks.push(stack);
  return stack;
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
// provider host) come from GNU time when installed; the emulator's from /proc.
const TIME = existsSync("/usr/bin/time") ? "/usr/bin/time" : undefined;
const cpuOf = (pid) => {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
};

/** Runs one engine step: wall-clock seconds, CPU seconds of the CLI's process tree and of the emulator. */
function step(stack, command, label) {
  const args = { up: ["up"], refresh: ["refresh"], destroy: ["destroy"] }[command];
  const timeFile = TIME ? join(workDir, "time.txt") : undefined;
  const emu0 = cpuOf(emulator.child.pid);
  const t0 = performance.now();
  try {
    const engineProfile = PROFILE_DIR
      ? ["--profiling", join(PROFILE_DIR, `${label}-${command}`, "engine")]
      : [];
    stack.pulumi(
      [...args, "--yes", "--skip-preview", ...engineProfile],
      profileEnv(`${label}-${command}`),
      timeFile,
    );
  } catch (err) {
    throw new Error(
      `pulumi ${command} of ${stack.name} failed:\n${err.stdout ?? ""}\n${err.stderr ?? err.message}`,
    );
  }
  const wall = (performance.now() - t0) / 1000;
  const cpu = timeFile
    ? readFileSync(timeFile, "utf8")
        .trim()
        .split("\n")
        .pop()
        .split(" ")
        .map(Number)
        .reduce((a, b) => a + b, 0)
    : Number.NaN;
  return { wall, cpu, emulatorCpu: cpuOf(emulator.child.pid) - emu0 };
}

/** Checkpoint size per resource and the size of one `__provider` text, from `pulumi stack export`. */
function stateSize(stack) {
  const deployment = JSON.parse(stack.pulumi(["stack", "export", "--show-secrets"])).deployment;
  const resources = (deployment.resources ?? []).filter((r) => r.type.startsWith("pulumi-nodejs:dynamic"));
  const total = JSON.stringify(resources).length;
  const provider = resources[0]?.outputs?.__provider ?? "";
  const outputs = resources[0] ? Object.keys(resources[0].outputs).length - 1 : 0;
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
async function controlPadding(kind, config) {
  const { serializeFunction } = require("@pulumi/pulumi/runtime/closure/serializeClosure");
  const { volume } = require("../dist/provider/stubs.js").stubs;
  const target = (await serializeFunction(() => volume, { allowSecrets: true })).text.length;
  const probe = createStack(kind, `${kind}-probe`, { ...config, n: 1 });
  step(probe, "up", `${kind}-probe`);
  const own = stateSize(probe).provider;
  step(probe, "destroy", `${kind}-probe`);
  // The probe already captures `pad: ""`: every padding character adds one to the text.
  return Math.max(0, target - own);
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

// ---------------------------------------------------------------------------------------------

const results = []; // { row, n, step, kind, seconds[], cpu[], emulatorCpu[] }
function record(row, n, stepName, kind, measured) {
  let r = results.find((x) => x.row === row && x.n === n && x.step === stepName && x.kind === kind);
  if (!r) {
    r = { row, n, step: stepName, kind, seconds: [], cpu: [], emulatorCpu: [] };
    results.push(r);
  }
  r.seconds.push(measured.wall);
  r.cpu.push(measured.cpu);
  r.emulatorCpu.push(measured.emulatorCpu);
}

async function main() {
  for (const kind of new Set([...KINDS, ...(ROWS.has("mixed") ? ["mixed", "mixed-noop"] : []), "noop"]))
    writeProgram(kind);
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
  const platform = { "platform:apiUrl": emulator.url, "platform:apiToken": emulator.token };
  if (KINDS.includes("io"))
    writeFileSync(
      join(workDir, "io", "node_modules", "bench-io", "target.json"),
      JSON.stringify({ url: emulator.url, token: emulator.token }),
    );
  const padChars = {
    fat: KINDS.includes("fat") ? await controlPadding("fat", {}) : 0,
    io: KINDS.includes("io") ? await controlPadding("io", {}) : 0,
  };
  console.log(
    `engine bench: ${cliVersion}, Node ${process.version}, file backend, N = ${SIZES.join(", ")}, ${ROUNDS} interleaved round(s)${PROFILE_DIR ? `, profiles in ${PROFILE_DIR}` : ""}`,
  );

  const states = [];
  for (const n of SIZES) {
    const basic = ROWS.has("basic")
      ? KINDS.map((kind) =>
          createStack(kind, `${kind}-${n}`, {
            ...platform,
            n,
            ...(kind === "fat" ? { padChars: padChars.fat } : {}),
            ...(kind === "io" ? { padChars: padChars.io } : {}),
          }),
        )
      : [];
    const latency = ROWS.has("latency")
      ? [
          createStack("volume", `volume-lat-${n}`, { ...platform, n }),
          createStack("noop", `noop-lat-${n}`, { ...platform, n, sleepMs: LATENCY_MS }),
        ]
      : [];
    const mixed = ROWS.has("mixed")
      ? [
          createStack("mixed", `mixed-${n}`, { ...platform, n }),
          createStack("mixed-noop", `mixed-noop-${n}`, { ...platform, n }),
        ]
      : [];
    for (let round = 0; round < ROUNDS; round++) {
      const order = (xs) => (round % 2 === 0 ? xs : [...xs].reverse());
      for (const s of order(basic)) {
        record("basic", n, "up", s.kind, step(s, "up", `${s.name}`));
        if (round === 0) states.push({ n, kind: s.kind, ...stateSize(s) });
        record("basic", n, "refresh", s.kind, step(s, "refresh", `${s.name}`));
        record("basic", n, "destroy", s.kind, step(s, "destroy", `${s.name}`));
        process.stderr.write(".");
      }
      for (const s of order(latency)) {
        if (s.kind === "volume")
          await emulator.control.faults.add({ kind: "latency", latencyMs: LATENCY_MS, times: 0 });
        try {
          record("latency", n, "up", s.kind === "volume" ? "volume" : "noop", step(s, "up", s.name));
        } finally {
          if (s.kind === "volume") await emulator.control.faults.clear();
        }
        step(s, "destroy", s.name);
        process.stderr.write(".");
      }
      for (const s of order(mixed)) {
        const kind = s.kind === "mixed" ? "volume" : "noop";
        record("mixed", n, "up", kind, step(s, "up", s.name));
        record("mixed", n, "refresh", kind, step(s, "refresh", s.name));
        s.pulumi(["config", "set", "generation", "2"]);
        record("mixed", n, "rotate", kind, step(s, "up", `${s.name}-rotate`));
        record("mixed", n, "destroy", kind, step(s, "destroy", s.name));
        s.pulumi(["config", "set", "generation", "1"]);
        process.stderr.write(".");
      }
    }
    process.stderr.write("\n");
  }

  // Report.
  const fmt = (x) => (x === undefined ? "-" : x.toFixed(2));
  const lines = [];
  const rowNames = { basic: "", latency: ` (+${LATENCY_MS} ms per API request)`, mixed: " (mixed)" };
  const others = KINDS.filter((k) => k !== "volume" && k !== "noop");
  lines.push(
    `| N | step | Volume s | no-op s | ratio | CPU ratio |${others.map((k) => ` ${k} s | Volume/${k} | CPU Volume/${k} |`).join("")}`,
    `|---|---|---|---|---|---|${others.map(() => "---|---|---|").join("")}`,
  );
  // CPU seconds of a step: the CLI's process tree plus the emulator (which only a Volume uses).
  // Less disturbed than wall time by other work on a shared machine.
  const cpuOfStep = (r) => (r ? median(r.cpu.map((c, i) => c + (r.emulatorCpu[i] || 0))) : undefined);
  const ratio = (a, b) => (a !== undefined && b ? fmt(a / b) : "-");
  for (const n of SIZES)
    for (const row of ["basic", "latency", "mixed"])
      for (const stepName of ["up", "refresh", "rotate", "destroy"]) {
        const get = (kind) =>
          results.find((r) => r.row === row && r.n === n && r.step === stepName && r.kind === kind);
        const v = get("volume");
        if (!v) continue;
        const base = get("noop");
        const vm = median(v.seconds);
        const bm = base ? median(base.seconds) : undefined;
        const extra =
          row === "basic"
            ? others.map((k) => {
                const o = get(k);
                const om = o ? median(o.seconds) : undefined;
                return ` ${fmt(om)} | ${ratio(vm, om)} | ${ratio(cpuOfStep(v), cpuOfStep(o))} |`;
              })
            : others.map(() => " | | |");
        lines.push(
          `| ${n} | ${stepName}${rowNames[row]} | ${fmt(vm)} | ${fmt(bm)} | **${ratio(vm, bm)}** | ${ratio(cpuOfStep(v), cpuOfStep(base))} |${extra.join("")}`,
        );
      }
  console.log(lines.join("\n"));
  // Where the CPU went: the CLI's process tree (engine + program + provider host) and the emulator.
  const cpuLines = [
    "",
    "CPU seconds per step (medians; CLI tree = engine, language host, program, provider host):",
  ];
  cpuLines.push(`| N | step | ${KINDS.map((k) => `${k} CLI tree | ${k} emulator`).join(" | ")} |`);
  cpuLines.push(`|---|---|${KINDS.map(() => "---|---").join("|")}|`);
  for (const n of SIZES)
    for (const stepName of ["up", "refresh", "destroy"]) {
      const cells = KINDS.map((kind) => {
        const r = results.find(
          (x) => x.row === "basic" && x.n === n && x.step === stepName && x.kind === kind,
        );
        return r ? `${fmt(median(r.cpu))} | ${fmt(median(r.emulatorCpu))}` : "- | -";
      });
      if (cells.some((c) => c !== "- | -")) cpuLines.push(`| ${n} | ${stepName} | ${cells.join(" | ")} |`);
    }
  console.log(cpuLines.join("\n"));
  if (states.length > 0) {
    console.log("\ncheckpoint per resource (stack export, bytes) / __provider text (chars) / outputs:");
    for (const s of states)
      console.log(`  N=${s.n} ${s.kind}: ${s.perResource} B / ${s.provider} / ${s.outputs}`);
  }
  const round2 = (xs) => xs.map((x) => +x.toFixed(2));
  console.log(
    `\nraw (wall s, CLI-tree CPU s): ${JSON.stringify(results.map((r) => [r.row, r.n, r.step, r.kind, round2(r.seconds), round2(r.cpu)]))}`,
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
