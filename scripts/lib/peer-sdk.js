// @ts-check
// The lowest `@pulumi/pulumi` of the package's peer range, installed once from the npm registry
// for test/e2e/peer-range.test.ts: `<cache>/pulumi-sdk-<version>/node_modules` (the cache
// scripts/ensure-pulumi and ./python-env.js use), keyed by the version alone. It is made in a
// temporary directory beside it and renamed into place when complete, so an interrupted or
// concurrent run never leaves a half-made one behind. Older versions are not removed (about
// 100 MB each): delete pulumi-sdk-* to reclaim them.
const { execFileSync } = require("node:child_process");
const crypto = require("node:crypto");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

const repoRoot = path.resolve(__dirname, "..", "..");

/** The lowest version the peer range `^X.Y.Z` (package.json) names: `X.Y.Z`. */
function lowestPeerVersion() {
  const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8"));
  const range = String(pkg.peerDependencies?.["@pulumi/pulumi"] ?? "");
  const match = /^\^(\d+\.\d+\.\d+)$/.exec(range);
  if (!match?.[1]) throw new Error(`package.json's peer range of @pulumi/pulumi is not ^X.Y.Z: "${range}"`);
  return match[1];
}

/**
 * The `node_modules` directory holding `@pulumi/pulumi@<version>` and its dependencies (installed
 * on first use: `npm install` from the registry, about a minute), whether this call made it, and
 * how long that took.
 * @param {string} version
 * @returns {{ nodeModules: string, version: string, created: boolean, seconds: number }}
 */
function ensurePeerSdk(version) {
  const cache = process.env.PULUMI_PLATFORM_CACHE ?? path.join(os.homedir(), ".cache", "pulumi-platform");
  const dir = path.join(cache, `pulumi-sdk-${version}`);
  const started = performance.now();
  let created = false;
  if (!fs.existsSync(path.join(dir, ".complete"))) {
    fs.mkdirSync(cache, { recursive: true });
    const tmp = `${dir}.tmp-${process.pid}-${crypto.randomBytes(3).toString("hex")}`;
    try {
      fs.mkdirSync(tmp);
      fs.writeFileSync(
        path.join(tmp, "package.json"),
        `${JSON.stringify({ name: "pulumi-sdk-cache", private: true, dependencies: { "@pulumi/pulumi": version } }, null, 2)}\n`,
      );
      try {
        execFileSync(
          "npm",
          ["install", "--no-audit", "--no-fund", "--ignore-scripts", "--no-package-lock", "--loglevel=error"],
          {
            cwd: tmp,
            encoding: "utf8",
            stdio: ["ignore", "pipe", "pipe"],
            env: {
              ...process.env,
              PATH: [path.join(repoRoot, "node_modules", ".bin"), process.env.PATH].join(":"),
            },
          },
        );
      } catch (err) {
        const e = /** @type {{ stdout?: string, stderr?: string, message: string }} */ (err);
        throw new Error(
          `npm install @pulumi/pulumi@${version} failed: ${e.message}\n${e.stdout ?? ""}${e.stderr ?? ""}`,
        );
      }
      fs.writeFileSync(path.join(tmp, ".complete"), `${version}\n`);
      try {
        fs.renameSync(tmp, dir);
        created = true;
      } catch (err) {
        // Another run finished first: keep its directory.
        if (!fs.existsSync(path.join(dir, ".complete"))) throw err;
      }
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  }
  return {
    nodeModules: path.join(dir, "node_modules"),
    version,
    created,
    seconds: (performance.now() - started) / 1000,
  };
}

module.exports = { ensurePeerSdk, lowestPeerVersion };
