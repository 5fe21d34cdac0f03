// Benchmark: examples/fleet (one stack per app through the Automation API, a shared file backend)
// at several concurrency limits against the emulator on loopback. Prints stacks per minute per
// concurrency and the mean engine time of one stack's `up` next to a lone single-stack `up`.
// Each row rolls the fleet up from nothing, then destroys it (not timed).
// Flags: --stacks 16 (BENCH_FLEET_STACKS)  --concurrency 1,4,8,16 (BENCH_FLEET_CONCURRENCY)
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs, promisify } from "node:util";

const run = promisify(execFile);
const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);
const {
  ensurePulumiCli,
  createOfflineBackend,
  offlineEngineEnv,
} = require("../scripts/lib/pulumi-engine.js");
const { startEmulator } = require("../dist/emulator/index.js");

const { values } = parseArgs({
  options: {
    stacks: { type: "string", default: process.env.BENCH_FLEET_STACKS ?? "16" },
    concurrency: { type: "string", default: process.env.BENCH_FLEET_CONCURRENCY ?? "1,4,8,16" },
  },
});
const STACKS = Number(values.stacks);
const LEVELS = values.concurrency.split(",").map(Number);
const apps = Array.from({ length: STACKS }, (_, i) => `bench-${String(i + 1).padStart(2, "0")}`);
const exampleDir = join(root, "examples", "fleet");

const tmp = mkdtempSync(join(tmpdir(), "fleet-bench-"));
const emu = await startEmulator({
  port: 0,
  eventsPort: 0,
  quiet: true,
  taskSocket: join(tmp, "api.sock"),
  seed: { apps },
});
const cliDir = ensurePulumiCli();
const backend = createOfflineBackend("fleet-bench");

async function fleet(list, concurrency, destroy = false) {
  const { stdout } = await run(
    process.execPath,
    [
      "-r",
      "ts-node/register",
      "index.ts",
      "--json",
      "--apps",
      list.join(","),
      "--concurrency",
      String(concurrency),
      ...(destroy ? ["--destroy"] : []),
    ],
    {
      cwd: exampleDir,
      maxBuffer: 64 * 1024 * 1024,
      env: {
        ...process.env,
        ...offlineEngineEnv(backend, cliDir),
        TS_NODE_PROJECT: join(exampleDir, "tsconfig.json"),
        TS_NODE_TRANSPILE_ONLY: "true",
        PLATFORM_API_URL: emu.url,
        PLATFORM_API_TOKEN: emu.token,
      },
    },
  );
  const summary = JSON.parse(stdout.trim().split("\n").at(-1));
  if (!summary.results.every((r) => r.ok))
    throw new Error(`a stack failed: ${JSON.stringify(summary.results)}`);
  return summary;
}

const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
try {
  console.log(
    `fleet bench: ${STACKS} stacks (a Volume and an AcmeCertificate each), file backend, emulator on loopback`,
  );
  const single = await fleet([apps[0]], 1);
  await fleet([apps[0]], 1, true);
  const singleSeconds = single.results[0].seconds;
  const rows = [];
  for (const c of LEVELS) {
    const up = await fleet(apps, c);
    await fleet(apps, Math.max(c, 4), true);
    rows.push({
      c,
      seconds: up.seconds,
      perMinute: (STACKS / up.seconds) * 60,
      perStack: mean(up.results.map((r) => r.seconds)),
    });
    process.stdout.write(".");
  }
  console.log(
    "\n| concurrency | wall s | stacks/min | mean s per stack `up` | vs a lone single-stack `up` |",
  );
  console.log("|---|---|---|---|---|");
  for (const r of rows) {
    console.log(
      `| ${r.c} | ${r.seconds.toFixed(1)} | ${r.perMinute.toFixed(1)} | ${r.perStack.toFixed(1)} | ${(r.perStack / singleSeconds).toFixed(2)}× |`,
    );
  }
  console.log(`lone single-stack up: ${singleSeconds.toFixed(1)} s`);
} finally {
  await emu.close();
  backend.remove();
  rmSync(tmp, { recursive: true, force: true });
}
