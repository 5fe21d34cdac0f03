// @ts-check
// The one place for running the real Pulumi engine offline: used by the tests, the demo and the
// benchmarks. The CLI comes from scripts/ensure-pulumi; every run gets its own file backend.
const { execFileSync } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

const repoRoot = path.resolve(__dirname, "..", "..");

/** @type {string | undefined} */
let cachedCliDir;

/**
 * Returns the directory holding `pulumi`, `pulumi-language-nodejs` and
 * `pulumi-resource-pulumi-nodejs`, building the CLI on first use. Throws with the script's
 * own explanation when no CLI can be obtained.
 * @returns {string}
 */
function ensurePulumiCli() {
  if (cachedCliDir) return cachedCliDir;
  if (process.env.PULUMI_PLATFORM_CLI_DIR) {
    cachedCliDir = process.env.PULUMI_PLATFORM_CLI_DIR;
    return cachedCliDir;
  }
  try {
    const out = execFileSync("bash", [path.join(repoRoot, "scripts", "ensure-pulumi")], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    });
    cachedCliDir = out.trim().split("\n").pop();
  } catch (err) {
    throw new Error(`The Pulumi CLI could not be obtained (scripts/ensure-pulumi failed): ${String(err)}`);
  }
  if (!cachedCliDir) throw new Error("scripts/ensure-pulumi printed no directory");
  process.env.PULUMI_PLATFORM_CLI_DIR = cachedCliDir;
  return cachedCliDir;
}

/** Where the project's caches live (as scripts/ensure-pulumi and ./python-env.js keep theirs). */
const cacheRoot =
  process.env.PULUMI_PLATFORM_CACHE ??
  path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), ".cache"), "pulumi-platform");

/**
 * Node's on-disk compile cache for every node process an engine command starts (the program, the
 * dynamic provider host, the plugin): each of them loads @pulumi/pulumi (and the program ts-node
 * with TypeScript) and compiled it again every time. Measured here: loading @pulumi/pulumi took
 * 1.25 s of CPU, 0.8 s with the cache; provider-volume.test.ts 246 s of CPU, 228 s. A caller's
 * own NODE_COMPILE_CACHE wins; NODE_DISABLE_COMPILE_CACHE=1 turns it off (Node's own switch).
 */
const nodeCompileCache = process.env.NODE_COMPILE_CACHE ?? path.join(cacheRoot, "node-compile-cache");

/**
 * Creates a fresh, empty directory for a file backend and Pulumi home.
 * @param {string} [label]
 */
function createOfflineBackend(label = "stack") {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `pulumi-platform-${label}-`));
  fs.mkdirSync(path.join(dir, "backend"));
  fs.mkdirSync(path.join(dir, "home"));
  return {
    dir,
    backendUrl: `file://${path.join(dir, "backend")}`,
    pulumiHome: path.join(dir, "home"),
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * Environment for a Pulumi CLI that must never reach the network.
 * @param {{ backendUrl: string, pulumiHome: string }} backend
 * @param {string} cliDir
 * @returns {Record<string, string>}
 */
function offlineEngineEnv(backend, cliDir) {
  const nodeBin = path.join(repoRoot, "node_modules", ".bin");
  return {
    PULUMI_BACKEND_URL: backend.backendUrl,
    PULUMI_HOME: backend.pulumiHome,
    PULUMI_CONFIG_PASSPHRASE: process.env.PULUMI_CONFIG_PASSPHRASE ?? "pulumi-platform-local",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PULUMI_AUTOMATION_API_SKIP_VERSION_CHECK: "true",
    NODE_COMPILE_CACHE: nodeCompileCache,
    // Node 22 from node_modules/.bin runs the program; the CLI directory comes first.
    PATH: [cliDir, nodeBin, process.env.PATH ?? ""].join(path.delimiter),
  };
}

module.exports = { repoRoot, ensurePulumiCli, createOfflineBackend, offlineEngineEnv };
