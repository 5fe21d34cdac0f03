// Module load time of pulumi-platform/provider/runtime in a fresh Node process, after what the
// dynamic provider host has already loaded (@pulumi/pulumi). Prints the total and the slowest
// modules by self time (inclusive time minus their children's). Usage:
//   node bench/profile/load-time.cjs [module] [--runs 5]
const { execFileSync } = require("node:child_process");
const path = require("node:path");

const target =
  process.argv[2] && !process.argv[2].startsWith("--") ? process.argv[2] : "pulumi-platform/provider/runtime";
const runs = Number(process.argv[process.argv.indexOf("--runs") + 1]) || 5;
const child = `
const Module = require("node:module");
require("@pulumi/pulumi");
require("@pulumi/pulumi/runtime/rpc");
const stack = [];
const self = new Map();
const load = Module._load;
Module._load = function (request, parent) {
  let file;
  try { file = Module._resolveFilename(request, parent); } catch { file = request; }
  if (Module._cache[file] || !file.includes("/")) return load.apply(this, arguments);
  const t0 = performance.now();
  stack.push(0);
  try { return load.apply(this, arguments); } finally {
    const total = performance.now() - t0;
    const children = stack.pop();
    if (stack.length) stack[stack.length - 1] += total;
    const key = file.replace(/.*node_modules\\//, "").replace(${JSON.stringify(path.resolve(__dirname, "..", ".."))} + "/", "");
    self.set(key, (self.get(key) ?? 0) + total - children);
  }
};
const t0 = performance.now();
require(${JSON.stringify(target)});
const total = performance.now() - t0;
const groups = new Map();
for (const [file, ms] of self) {
  const g = file.startsWith("dist/") ? file.split("/").slice(0, 2).join("/") : file.split("/")[0].startsWith("@") ? file.split("/").slice(0, 2).join("/") : file.split("/")[0];
  groups.set(g, (groups.get(g) ?? 0) + ms);
}
console.log(JSON.stringify({ total, modules: self.size, groups: [...groups].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.GROUPS || 8)), files: [...self].sort((a, b) => b[1] - a[1]).slice(0, 25) }));
`;
const results = [];
for (let i = 0; i < runs; i++) {
  results.push(
    JSON.parse(
      execFileSync(process.execPath, ["-e", child], {
        cwd: path.resolve(__dirname, "..", "results"),
        encoding: "utf8",
      }),
    ),
  );
}
results.sort((a, b) => a.total - b.total);
const med = results[Math.floor(runs / 2)];
console.log(
  `${target}: median ${med.total.toFixed(0)} ms over ${runs} fresh processes (min ${results[0].total.toFixed(0)}), ${med.modules} modules`,
);
for (const [g, ms] of med.groups) console.log(`  ${ms.toFixed(0).padStart(5)} ms  ${g}`);
if (process.env.FILES)
  for (const [f, ms] of med.files) console.log(`    ${ms.toFixed(1).padStart(6)} ms  ${f}`);
