// @ts-check
// `npm run bench`: compiles dist/, then runs every benchmark in bench/ one after another (they
// compete for the same two cores otherwise) and prints each one's own report. Benchmarks are
// measurements, never tests: nothing here runs in `npm test`.
const { execFileSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");

const root = path.resolve(__dirname, "..");
// Names pick benchmarks; from the first flag on (`engine --n 500 --per-process`) the arguments go
// to each benchmark run.
const args = process.argv.slice(2);
const firstFlag = args.findIndex((a) => a.startsWith("-"));
const only = firstFlag === -1 ? args : args.slice(0, firstFlag);
const flags = firstFlag === -1 ? [] : args.slice(firstFlag);
const benches = fs
  .readdirSync(path.join(root, "bench"))
  .filter((f) => f.endsWith(".mjs") && (only.length === 0 || only.some((o) => f.includes(o))))
  .sort();

// dist/ (and the plugin's bundle), then the engine bench's programs (JavaScript, type checked against dist/).
const tsc = path.join(root, "node_modules", "typescript", "bin", "tsc");
for (const project of [root, path.join(root, "bench", "programs")])
  execFileSync(process.execPath, [tsc, "-p", project], { stdio: "inherit" });
// The plugin's one-file build, as `npm run build` makes it.
execFileSync(process.execPath, [path.join(__dirname, "build-plugin.js")], { stdio: "inherit" });
let failed = 0;
for (const file of benches) {
  process.stdout.write(`\n==> bench/${file}\n`);
  try {
    execFileSync(process.execPath, [path.join(root, "bench", file), ...flags], {
      stdio: "inherit",
      cwd: root,
    });
  } catch {
    failed++;
  }
}
process.exitCode = failed > 0 ? 1 : 0;
