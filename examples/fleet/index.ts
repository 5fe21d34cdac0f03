// A fleet of stacks on a shared backend: one small stack per app (a volume and a certificate),
// rolled out by the Automation API with a concurrency limit. The backend (a local directory, or
// PostgreSQL) holds every stack's state and lock, so several of these processes can run at once,
// as several CI runners would.
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { runFleet, type StackResult } from "./fleet";

const { values } = parseArgs({
  options: {
    apps: { type: "string" },
    count: { type: "string", default: "10" },
    prefix: { type: "string", default: "fleet-" },
    concurrency: { type: "string", default: "4" },
    backend: { type: "string" },
    destroy: { type: "boolean", default: false },
    json: { type: "boolean", default: false },
  },
});

const apps = values.apps
  ? values.apps.split(",").filter(Boolean)
  : Array.from(
      { length: Number(values.count) },
      (_, i) => `${values.prefix}${String(i + 1).padStart(2, "0")}`,
    );
const concurrency = Number(values.concurrency);
if (!(concurrency >= 1) || apps.length === 0) {
  console.error(
    "usage: index.ts [--apps a,b | --count N --prefix P] [--concurrency N] [--backend URL] [--destroy] [--json]",
  );
  process.exit(2);
}
const backend =
  values.backend ?? process.env.PULUMI_BACKEND_URL ?? `file://${path.join(__dirname, ".fleet-state")}`;
if (backend.startsWith("file://")) fs.mkdirSync(backend.slice("file://".length), { recursive: true });

const env: Record<string, string> = {
  PULUMI_BACKEND_URL: backend,
  PULUMI_CONFIG_PASSPHRASE: process.env.PULUMI_CONFIG_PASSPHRASE ?? "fleet-passphrase",
  PULUMI_SKIP_UPDATE_CHECK: "true",
};

const tty = process.stdout.isTTY && !values.json;
const states = new Map<string, string>(apps.map((a) => [a, "queued"]));
const started = Date.now();
let done = 0;
let drawn = 0;

function draw(results: StackResult[]): void {
  if (!tty) return;
  if (drawn > 0) process.stdout.write(`\x1b[${drawn}A`);
  const lines = apps.map((a) => `  ${a.padEnd(16)} ${states.get(a)}`);
  const elapsed = (Date.now() - started) / 1000;
  const eta = done > 0 ? ((elapsed / done) * (apps.length - done)).toFixed(0) : "?";
  const failed = results.filter((r) => !r.ok).length;
  lines.push(
    `  ${done}/${apps.length} done, ${failed} failed, ${elapsed.toFixed(0)} s elapsed, ETA ${eta} s`,
  );
  process.stdout.write(`${lines.map((l) => `\x1b[2K${l}`).join("\n")}\n`);
  drawn = lines.length;
}

async function main(): Promise<void> {
  const results: StackResult[] = [];
  const all = await runFleet({
    apps,
    concurrency,
    destroy: values.destroy ?? false,
    workDir: __dirname,
    env,
    onProgress: ({ app, state, result }) => {
      if (result) {
        results.push(result);
        done++;
      }
      states.set(
        app,
        result ? `${state} in ${result.seconds.toFixed(1)} s ${JSON.stringify(result.changes)}` : state,
      );
      draw(results);
    },
  });
  const seconds = (Date.now() - started) / 1000;
  if (values.json) {
    console.log(JSON.stringify({ seconds, concurrency, results: all }));
  } else {
    console.log(`\n${"app".padEnd(16)} ${"result".padEnd(8)} ${"seconds".padStart(7)}  changes / error`);
    for (const r of all) {
      const what = r.ok
        ? `${JSON.stringify(r.changes)}${r.attempts > 1 ? ` (second run; first: ${r.firstError})` : ""}`
        : r.error;
      console.log(
        `${r.app.padEnd(16)} ${(r.ok ? "ok" : "FAILED").padEnd(8)} ${r.seconds.toFixed(1).padStart(7)}  ${what}`,
      );
    }
    const perMinute = (all.length / seconds) * 60;
    console.log(
      `\n${all.length} stacks in ${seconds.toFixed(1)} s (${perMinute.toFixed(1)} stacks/min, concurrency ${concurrency}), backend ${backend}`,
    );
  }
  process.exitCode = all.every((r) => r.ok) ? 0 : 1;
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
