// @ts-check
// `npm run demo`: the whole product in one command, offline. Builds the package when stale,
// obtains the Pulumi CLI, starts the emulator with a state file, and runs the quickstart program
// (the root Pulumi.yaml) through the real `pulumi` CLI: preview, up, outputs, DNS records set in
// the emulator's simulated DNS, certificates turning active, an in-place volume grow with
// needsRestart, refresh, destroy. Exits non-zero on any failure; always stops the emulator and
// removes its temp files, also on Ctrl-C. `npm run demo -- --responses sparse` runs it against the
// emulator's sparse answers (every member the real platform may leave out or null is).

const { spawn, execFileSync } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { repoRoot, ensurePulumiCli, createOfflineBackend, offlineEngineEnv } = require("./lib/pulumi-engine");
const { startEmulatorProcess } = require("./demo/emulator-process");

const APP = "demo-app";
const DOMAIN = "demo.example.com";
const MACHINE = "m-demo-0001";
const GROWN_SIZE_GB = 10;
const started = Date.now();

/** Everything cleanup must undo; filled in as the demo goes. */
const resources = {
  /** @type {import("./demo/emulator-process").RunningEmulator | undefined} */ emulator: undefined,
  /** @type {ReturnType<typeof createOfflineBackend> | undefined} */ backend: undefined,
  /** @type {string | undefined} */ tmpDir: undefined,
  /** @type {string | undefined} */ stackConfigFile: undefined,
  /** @type {import("node:child_process").ChildProcess | undefined} */ child: undefined,
};
let interrupted = false;

const color = process.stdout.isTTY && !process.env.NO_COLOR;
const bold = (/** @type {string} */ s) => (color ? `\x1b[1m${s}\x1b[0m` : s);
const step = (/** @type {string} */ s) => process.stdout.write(`\n${bold(`==> ${s}`)}\n`);
const info = (/** @type {string} */ s) => process.stdout.write(`    ${s}\n`);

async function main() {
  const responses = responsesMode(process.argv.slice(2));
  const major = Number(process.versions.node.split(".")[0]);
  if (major < 22) {
    throw new Error(
      `Node ${process.version} is too old; run the demo with \`npm run demo\` (it puts the repo's Node 22 from node_modules/.bin first on PATH)`,
    );
  }

  step("Building the package (dist/) if the sources changed");
  buildIfStale();

  step("Obtaining the Pulumi CLI (scripts/ensure-pulumi)");
  const cliDir = ensurePulumiCli();
  const pulumiBin = path.join(cliDir, "pulumi");
  info(`${execFileSync(pulumiBin, ["version"], { encoding: "utf8" }).trim()} from ${cliDir}`);

  step("Starting the platform emulator (state kept in a file)");
  const tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-platform-demo-"));
  resources.tmpDir = tmpDir;
  const stateFile = path.join(tmpDir, "emulator-state.json");
  const emulator = await startEmulatorProcess(
    path.join(repoRoot, "dist", "emulator", "cli.js"),
    [
      "--port",
      "0",
      "--events-port",
      "0",
      "--state",
      stateFile,
      "--task-socket",
      path.join(tmpDir, "task.sock"),
      ...(responses === "sparse" ? ["--responses", "sparse"] : []),
    ],
    { logFile: path.join(tmpDir, "emulator.log") },
  );
  resources.emulator = emulator;
  // Loaded after the build above: the demo uses the package as a user would.
  const { createControlClient } = require("pulumi-platform/emulator");
  const control = createControlClient(emulator.info.url, emulator.info.token);
  info(`emulator at ${emulator.info.url} (pid ${emulator.pid}), state file ${stateFile}`);
  info(`seeded with app ${APP} and Postgres cluster demo-pg (user app_user)`);
  if (responses === "sparse") {
    info("sparse answers: members the real platform may leave out or null are left out or null");
  }

  step(
    "Creating a stack of the quickstart program (root Pulumi.yaml → examples/quickstart) on a fresh file backend",
  );
  const backend = createOfflineBackend("demo");
  resources.backend = backend;
  const env = engineEnv(backend, cliDir);
  const stack = freeStackName();
  resources.stackConfigFile = path.join(repoRoot, `Pulumi.${stack}.yaml`);
  /** @param {string[]} args @param {{ input?: string, capture?: boolean, quiet?: boolean }} [opts] */
  const pulumi = (args, opts) => runPulumi(pulumiBin, args, env, stack, opts);
  await pulumi(["stack", "init"], { quiet: true });
  info(`stack ${stack}, backend ${backend.backendUrl}`);
  const chain = await selfSignedChain(`api.${DOMAIN}`);
  info(`generated a self-signed certificate chain for api.${DOMAIN} (its key goes in as a secret)`);
  await pulumi(["config", "set", "platform:apiUrl", emulator.info.url], { quiet: true });
  await pulumi(["config", "set", "--secret", "platform:apiToken"], {
    input: emulator.info.token,
    quiet: true,
  });
  await pulumi(["config", "set", "customFullchain"], { input: chain.fullchain, quiet: true });
  await pulumi(["config", "set", "--secret", "customPrivateKey"], { input: chain.privateKey, quiet: true });
  await pulumi(["config", "set", "domain", DOMAIN], { quiet: true });
  info(
    "config: platform:apiUrl, platform:apiToken (secret), domain, customFullchain, customPrivateKey (secret)",
  );

  step("Preview: the planned changes");
  await pulumi(["preview"]);

  step("Up: a volume, a snapshot of it, a volume restored from it, two certificates, a password rotation");
  await pulumi(["up", "--yes", "--skip-preview"]);

  info(
    "the outputs above hide secrets: `pulumi stack output postgres --show-secrets` would reveal the password",
  );
  let outputs = JSON.parse(await pulumi(["stack", "output", "--json"], { capture: true }));

  step("DNS records each certificate still needs");
  const certificates = [outputs.wildcardCertificate, outputs.apiCertificate];
  /** @type {import("pulumi-platform/emulator").DnsRecord[]} */
  const records = [];
  for (const cert of certificates) {
    info(`${cert.hostname}  (status ${cert.status})`);
    for (const r of cert.dnsRecords) {
      info(`    ${r.type.padEnd(5)} ${r.name.padEnd(44)} ${r.value}`);
      records.push({ type: r.type, name: r.name, value: r.value });
    }
  }

  step("Setting those records in the emulator's simulated DNS and checking the certificates");
  await control.dns.set(records);
  info(`PUT /__emulator/dns: ${records.length} records set`);
  const { PlatformClient } = require("pulumi-platform/sdk");
  const platform = new PlatformClient({ baseUrl: emulator.info.url, token: emulator.info.token });
  try {
    for (const cert of certificates) {
      const checked = await platform.certificates.check(APP, cert.hostname);
      info(`${cert.hostname}: ${cert.status} → ${checked.status}`);
      if (checked.status !== "active") {
        throw new Error(`${cert.hostname} did not turn active: ${JSON.stringify(checked.validation_errors)}`);
      }
    }
  } finally {
    await platform.close();
  }

  step(
    "Refresh (running the program, so the stack outputs follow): Pulumi sees the certificates' new status",
  );
  await pulumi(["refresh", "--yes", "--skip-preview", "--run-program"]);
  outputs = JSON.parse(await pulumi(["stack", "output", "--json"], { capture: true }));
  for (const cert of [outputs.wildcardCertificate, outputs.apiCertificate]) {
    info(`${cert.hostname}: ${cert.status} in the stack's state`);
    if (cert.status !== "active") throw new Error(`refresh did not record ${cert.hostname} as active`);
  }

  step(
    `Growing the data volume ${outputs.dataVolume.sizeGb} GB → ${GROWN_SIZE_GB} GB in place (it is attached to a machine)`,
  );
  await control.volumes.attach(outputs.dataVolume.id, MACHINE);
  info(
    `attached volume ${outputs.dataVolume.id} to machine ${MACHINE} (POST /__emulator/volumes/:id/attach)`,
  );
  await pulumi(["config", "set", "sizeGb", String(GROWN_SIZE_GB)], { quiet: true });
  await pulumi(["up", "--yes"]);
  outputs = JSON.parse(await pulumi(["stack", "output", "--json"], { capture: true }));
  info(
    `dataVolume: sizeGb ${outputs.dataVolume.sizeGb}, needsRestart ${outputs.dataVolume.needsRestart}` +
      (outputs.dataVolume.needsRestart ? ` (machine ${MACHINE} must restart to use the added space)` : ""),
  );
  if (outputs.dataVolume.sizeGb !== GROWN_SIZE_GB || outputs.dataVolume.needsRestart !== true) {
    throw new Error(`expected sizeGb ${GROWN_SIZE_GB} and needsRestart true after the grow`);
  }

  step("Refresh: state matches the platform");
  await pulumi(["refresh", "--yes", "--skip-preview"]);

  step("Destroy: everything goes");
  await control.volumes.detach(outputs.dataVolume.id);
  info(
    `detached volume ${outputs.dataVolume.id} from ${MACHINE} first (POST /__emulator/volumes/:id/detach)`,
  );
  await pulumi(["destroy", "--yes", "--skip-preview"]);
  const state = await control.state();
  const left = [
    ...state.volumes
      .filter((/** @type {any} */ v) => v.state !== "destroyed")
      .map((/** @type {any} */ v) => `volume ${v.id}`),
    ...state.certificates.map((/** @type {any} */ c) => `certificate ${c.hostname}`),
  ];
  if (left.length > 0) throw new Error(`the emulator still holds: ${left.join(", ")}`);
  info("the emulator holds no volumes and no certificates (snapshots stay until their retention ends)");
  await pulumi(["stack", "rm", "--yes", "--force"], { quiet: true });
}

/**
 * `--responses full|sparse` (or `--responses=sparse`) from the command line; full by default.
 * @param {string[]} args @returns {"full" | "sparse"}
 */
function responsesMode(args) {
  let mode = "full";
  for (let i = 0; i < args.length; i++) {
    const arg = /** @type {string} */ (args[i]);
    if (arg === "--responses") mode = args[++i] ?? "";
    else if (arg.startsWith("--responses=")) mode = arg.slice("--responses=".length);
    else throw new Error(`unknown argument ${arg}; usage: npm run demo [-- --responses full|sparse]`);
  }
  if (mode !== "full" && mode !== "sparse") {
    throw new Error(`--responses must be full or sparse (got ${JSON.stringify(mode)})`);
  }
  return mode;
}

/** Recompiles dist/ (and relinks node_modules/pulumi-platform) when a source is newer than the build. */
function buildIfStale() {
  const outputs = ["provider", "sdk", "emulator"].map((d) => path.join(repoRoot, "dist", d, "index.js"));
  const linked = fs.existsSync(path.join(repoRoot, "node_modules", "pulumi-platform", "package.json"));
  const builtAt = Math.min(...outputs.map((f) => (fs.existsSync(f) ? fs.statSync(f).mtimeMs : 0)));
  const newest = Math.max(
    fs.statSync(path.join(repoRoot, "tsconfig.json")).mtimeMs,
    ...["provider", "sdk", "emulator"].flatMap((d) => sourceTimes(path.join(repoRoot, d))),
  );
  if (linked && newest <= builtAt && fs.existsSync(path.join(repoRoot, "dist", "emulator", "cli.js"))) {
    info("dist/ is up to date");
    return;
  }
  info("compiling with tsc (scripts/prepare.js)");
  execFileSync(process.execPath, [path.join(repoRoot, "scripts", "prepare.js")], { stdio: "inherit" });
}

/** @param {string} dir @returns {number[]} */
function sourceTimes(dir) {
  /** @type {number[]} */
  const times = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name.endsWith(".ts"))
      times.push(fs.statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
  }
  return times;
}

/**
 * The CLI's environment: the offline engine settings, without ambient credentials that could
 * point the program somewhere else (the stack config holds the emulator's).
 * @param {ReturnType<typeof createOfflineBackend>} backend
 * @param {string} cliDir
 */
function engineEnv(backend, cliDir) {
  /** @type {Record<string, string>} */
  const env = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  for (const k of [
    "PLATFORM_API_URL",
    "PLATFORM_API_TOKEN",
    "PULUMI_ACCESS_TOKEN",
    "PULUMI_BACKEND_URL",
    "PULUMI_STACK",
  ]) {
    delete env[k];
  }
  return { ...env, ...offlineEngineEnv(backend, cliDir) };
}

/** `demo`, unless the repo root already has a Pulumi.demo.yaml of someone's own. */
function freeStackName() {
  if (!fs.existsSync(path.join(repoRoot, "Pulumi.demo.yaml"))) return "demo";
  return `demo-${process.pid}`;
}

/**
 * Runs `pulumi <args> --stack <stack>` in the repo root with the user's terminal attached, so the
 * normal Pulumi display shows; `capture` returns stdout instead; `input` is written to stdin.
 * @param {string} bin @param {string[]} args @param {Record<string, string>} env @param {string} stack
 * @param {{ input?: string, capture?: boolean, quiet?: boolean }} [opts]
 * @returns {Promise<string>}
 */
function runPulumi(bin, args, env, stack, opts = {}) {
  if (interrupted) return Promise.reject(new Error("interrupted"));
  const fullArgs = [...args, "--stack", stack];
  if (!opts.quiet && !opts.capture) process.stdout.write(`\n$ pulumi ${args.join(" ")}\n`);
  return new Promise((resolve, reject) => {
    const child = spawn(bin, fullArgs, {
      cwd: repoRoot,
      env,
      stdio: [
        opts.input === undefined ? "ignore" : "pipe",
        opts.capture || opts.quiet ? "pipe" : "inherit",
        "inherit",
      ],
    });
    resources.child = child;
    let out = "";
    child.stdout?.on("data", (d) => {
      out += d;
    });
    if (opts.input !== undefined) child.stdin?.end(opts.input);
    child.once("error", reject);
    child.once("exit", (code, signal) => {
      resources.child = undefined;
      if (code === 0) resolve(out);
      else
        reject(
          new Error(`pulumi ${args.join(" ")} failed (${signal ? `signal ${signal}` : `exit code ${code}`})`),
        );
    });
  });
}

/**
 * The quickstart's own generator (examples/quickstart/self-signed.ts), loaded through ts-node.
 * @param {string} hostname @returns {Promise<{ fullchain: string, privateKey: string }>}
 */
async function selfSignedChain(hostname) {
  const dir = path.join(repoRoot, "examples", "quickstart");
  require("ts-node").register({ transpileOnly: true, project: path.join(dir, "tsconfig.json") });
  return require(path.join(dir, "self-signed.ts")).selfSignedChain(hostname);
}

/** Stops whatever runs, removes every temp file. Safe to call twice. */
async function cleanup() {
  const child = resources.child;
  if (child && child.exitCode === null) {
    child.kill("SIGINT"); // lets pulumi cancel cleanly
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    await new Promise((resolve) => child.once("exit", resolve));
    clearTimeout(timer);
  }
  if (resources.emulator) {
    await resources.emulator.stop().catch(() => undefined);
    resources.emulator = undefined;
  }
  if (resources.stackConfigFile) fs.rmSync(resources.stackConfigFile, { force: true });
  resources.backend?.remove();
  if (resources.tmpDir) fs.rmSync(resources.tmpDir, { recursive: true, force: true });
}

/** @param {NodeJS.Signals} signal */
function onSignal(signal) {
  if (interrupted) return; // a second Ctrl-C while cleaning up: keep cleaning
  interrupted = true;
  process.stderr.write(`\n==> ${signal}: stopping the demo and cleaning up\n`);
  void cleanup().finally(() => process.exit(130));
}
process.on("SIGINT", onSignal);
process.on("SIGTERM", onSignal);

main().then(
  async () => {
    await cleanup();
    step(
      `Demo finished in ${Math.round((Date.now() - started) / 1000)} s: emulator stopped, temp files removed`,
    );
  },
  async (/** @type {Error} */ err) => {
    if (interrupted) return; // the signal handler cleans up and exits
    const logFile = resources.emulator?.logFile;
    const log =
      logFile && fs.existsSync(logFile)
        ? fs.readFileSync(logFile, "utf8").split("\n").slice(-15).join("\n")
        : "";
    process.stderr.write(`\n==> demo failed: ${err.message}\n`);
    if (log.trim()) process.stderr.write(`    last lines of the emulator log:\n${log}\n`);
    await cleanup();
    process.exitCode = 1;
  },
);
