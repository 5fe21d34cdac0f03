// Who calls a function: total (inclusive) time under each distinct caller chain of the
// functions whose name matches a pattern, from one .cpuprofile. Usage:
//   node bench/profile/callers.mjs FILE PATTERN [--depth 6]
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { depth: { type: "string", default: "6" } },
});
const [file, pattern] = positionals;
const prof = JSON.parse(readFileSync(file, "utf8"));
const byId = new Map(prof.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const self = new Map();
for (let i = 0; i < prof.samples.length; i++)
  self.set(prof.samples[i], (self.get(prof.samples[i]) ?? 0) + (prof.timeDeltas[i + 1] ?? 0) / 1000);
const inclusive = (id) =>
  (self.get(id) ?? 0) + (byId.get(id).children ?? []).reduce((s, c) => s + inclusive(c), 0);
const label = (n) =>
  `${n.callFrame.functionName || "(anon)"}@${n.callFrame.url.replace(/.*node_modules\//, "").replace(/.*\/dist\//, "dist/")}:${n.callFrame.lineNumber + 1}`;
const re = new RegExp(pattern);
const chains = new Map();
for (const n of prof.nodes) {
  if (!re.test(n.callFrame.functionName)) continue;
  // Skip nested matches: count only the outermost.
  let p = parent.get(n.id);
  let nested = false;
  for (let q = p; q !== undefined; q = parent.get(q))
    if (re.test(byId.get(q).callFrame.functionName)) nested = true;
  if (nested) continue;
  const chain = [];
  for (let d = 0; p !== undefined && d < Number(values.depth); d++, p = parent.get(p))
    chain.push(label(byId.get(p)));
  const key = chain.join(" < ");
  chains.set(key, (chains.get(key) ?? 0) + inclusive(n.id));
}
for (const [k, ms] of [...chains].sort((a, b) => b[1] - a[1]).slice(0, 15))
  console.log(`${ms.toFixed(0).padStart(6)} ms  ${k}`);
