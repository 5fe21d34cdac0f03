// Summarizes V8 .cpuprofile files (from `bench/engine.mjs --profile DIR`): per profile, the busy
// time (samples that are not idle) and self time by where the code lives. Usage:
//   node bench/profile/summarize.mjs DIR [--top 15]
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { parseArgs } from "node:util";

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { top: { type: "string", default: "12" } },
});
const TOP = Number(values.top);

function* profiles(dir) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) yield* profiles(p);
    else if (name.endsWith(".cpuprofile")) yield p;
  }
}

function category(url, fn) {
  if (fn === "(idle)") return "idle";
  if (fn === "(garbage collector)") return "gc";
  if (fn === "(program)") return "program(native)";
  if (!url) return "native";
  if (url.includes("/dist/provider/runtime/") || url.includes("/dist/provider/kinds/"))
    return "ours:provider/runtime";
  if (url.includes("/dist/provider/")) return "ours:provider";
  if (url.includes("/dist/sdk/")) return "ours:sdk";
  if (url.includes("/dist/emulator/")) return "ours:emulator";
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)\/(.*)/.exec(url);
  if (m) {
    if (m[1] === "@pulumi/pulumi") {
      const sub = m[2]
        .split("/")
        .slice(0, m[2].startsWith("runtime/closure") ? 2 : 1)
        .join("/");
      return `@pulumi/pulumi/${sub}`;
    }
    return m[1];
  }
  if (url.startsWith("node:")) return "node:internal";
  if (url.includes("/bench/results/")) return "program/serialized provider";
  return url.startsWith("evalmachine") || url.startsWith("file") ? "other" : "other";
}

for (const file of profiles(positionals[0])) {
  const prof = JSON.parse(readFileSync(file, "utf8"));
  const byId = new Map(prof.nodes.map((n) => [n.id, n]));
  const dt = new Map();
  for (let i = 0; i < prof.samples.length; i++) {
    const id = prof.samples[i];
    dt.set(id, (dt.get(id) ?? 0) + (prof.timeDeltas[i + 1] ?? 0) / 1000);
  }
  const cats = new Map();
  const fns = new Map();
  let busy = 0;
  for (const [id, ms] of dt) {
    const n = byId.get(id);
    const fn = n.callFrame.functionName || "(anonymous)";
    const cat = category(n.callFrame.url, fn);
    cats.set(cat, (cats.get(cat) ?? 0) + ms);
    if (cat !== "idle") busy += ms;
    const key = `${fn} ${n.callFrame.url.replace(/.*node_modules\//, "").replace(/.*\/dist\//, "dist/")}:${n.callFrame.lineNumber + 1}`;
    if (cat !== "idle") fns.set(key, (fns.get(key) ?? 0) + ms);
  }
  // Inclusive view: each busy sample goes to the first bucket its stack matches, leaf to root
  // last: module loading (require), then our dist/ code (incl. zod/undici under it), then the rest.
  const parent = new Map();
  for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const buckets = new Map();
  for (const [id, ms] of dt) {
    const leaf = byId.get(id);
    if (["(idle)"].includes(leaf.callFrame.functionName)) continue;
    let bucket =
      leaf.callFrame.functionName === "(garbage collector)"
        ? "gc"
        : "other (grpc, protobuf, pulumi sdk, node)";
    // Leaf to root: the nearest frame that says what this sample is part of.
    for (let q = id; q !== undefined; q = parent.get(q)) {
      const f = byId.get(q).callFrame;
      const name = f.functionName;
      if (
        name === "wrapSafe" ||
        name === "compileForInternalLoader" ||
        name === "_load" ||
        name === "Module._load" ||
        name === "wrapModuleLoad"
      ) {
        bucket = "module loading";
        break;
      }
      if (f.url.includes("/dist/provider/") || f.url.includes("/dist/sdk/")) {
        bucket = "pulumi-platform code (incl. zod, undici it calls)";
        break;
      }
      if (f.url.includes("/undici/")) {
        bucket = "undici (I/O callbacks)";
        break;
      }
      if (f.url.includes("/dist/emulator/")) {
        bucket = "emulator code";
        break;
      }
      if (f.url.includes("/fastify/") || f.url.includes("/find-my-way/")) {
        bucket = "fastify";
        break;
      }
      if (f.url.includes("source-map-support") || f.url.includes("trace-mapping")) {
        bucket = "source maps of stack traces";
        break;
      }
      if (f.url.includes("/@pulumi/pulumi/")) {
        bucket = "@pulumi/pulumi";
        break;
      }
      if (f.url.includes("/@grpc/") || f.url.includes("google-protobuf")) {
        bucket = "grpc/protobuf";
        break;
      }
    }
    buckets.set(bucket, (buckets.get(bucket) ?? 0) + ms);
  }
  const wall = (prof.endTime - prof.startTime) / 1000;
  console.log(
    `\n## ${relative(positionals[0], file)}: wall ${wall.toFixed(0)} ms, busy ${busy.toFixed(0)} ms`,
  );
  for (const [cat, ms] of [...cats].sort((a, b) => b[1] - a[1]).slice(0, TOP))
    console.log(`  ${ms.toFixed(0).padStart(7)} ms  ${cat}`);
  console.log("  inclusive buckets:");
  for (const [b, ms] of [...buckets].sort((a, b) => b[1] - a[1]))
    console.log(`  ${ms.toFixed(0).padStart(7)} ms  ${b}`);
  console.log("  top functions (self):");
  for (const [fn, ms] of [...fns].sort((a, b) => b[1] - a[1]).slice(0, TOP))
    console.log(`  ${ms.toFixed(0).padStart(7)} ms  ${fn}`);
}
