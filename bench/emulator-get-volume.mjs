// Benchmark: GET /v1/apps/{app}/volumes/{id} against the emulator at 50 keep-alive connections.
// Run `npm run build` first, then `node bench/emulator-get-volume.mjs` (Node 22). The emulator runs
// in its own process (dist/emulator/cli.js) so client and server do not share an event loop.
// Env: BENCH_DURATION_MS (default 10000), BENCH_MAX_REQUESTS (default 100000),
// BENCH_CONNECTIONS (default 50). Exits 1 when below 5,000 req/s or p99 >= 10 ms.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { Pool } from "undici";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const cli = join(root, "dist", "emulator", "cli.js");
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 10_000);
const MAX_REQUESTS = Number(process.env.BENCH_MAX_REQUESTS ?? 100_000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const WARMUP_MS = 1000;

if (!existsSync(cli)) {
  console.error(`${cli} is missing: run \`npm run build\` first`);
  process.exit(2);
}

const child = spawn(
  process.execPath,
  [
    cli,
    "--port",
    "0",
    "--quiet",
    "--task-socket",
    join(mkdtempSync(join(tmpdir(), "emu-bench-")), "api.sock"),
  ],
  { stdio: ["ignore", "pipe", "inherit"] },
);
const start = await new Promise((resolve, reject) => {
  createInterface({ input: child.stdout }).once("line", (line) => resolve(JSON.parse(line)));
  child.once("exit", (code) => reject(new Error(`emulator exited with ${code}`)));
});

const headers = { authorization: `Bearer ${start.token}`, "content-type": "application/json" };
const pool = new Pool(start.url, { connections: CONNECTIONS, pipelining: 1 });
try {
  const created = await pool.request({
    method: "POST",
    path: "/v1/apps/demo-app/volumes",
    headers,
    body: JSON.stringify({ name: "bench" }),
  });
  const volume = await created.body.json();
  const path = `/v1/apps/demo-app/volumes/${volume.id}`;

  const run = async (ms, limit, latencies) => {
    const until = performance.now() + ms;
    let sent = 0;
    let errors = 0;
    const worker = async () => {
      while (performance.now() < until && sent < limit) {
        sent++;
        const t0 = performance.now();
        try {
          const res = await pool.request({ method: "GET", path, headers });
          await res.body.dump();
          if (res.statusCode !== 200) errors++;
        } catch {
          errors++;
        }
        latencies?.push(performance.now() - t0);
      }
    };
    const t0 = performance.now();
    await Promise.all(Array.from({ length: CONNECTIONS }, worker));
    return { sent, errors, seconds: (performance.now() - t0) / 1000 };
  };

  await run(WARMUP_MS, Number.POSITIVE_INFINITY);
  const latencies = [];
  const { sent, errors, seconds } = await run(DURATION_MS, MAX_REQUESTS, latencies);
  latencies.sort((a, b) => a - b);
  const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))];
  const result = {
    connections: CONNECTIONS,
    requests: sent,
    errors,
    seconds: Number(seconds.toFixed(2)),
    requestsPerSecond: Math.round(sent / seconds),
    p50Ms: Number(pct(50).toFixed(2)),
    p99Ms: Number(pct(99).toFixed(2)),
  };
  console.log(JSON.stringify(result));
  const ok = result.requestsPerSecond >= 5000 && result.p99Ms < 10 && errors === 0;
  console.error(
    `GET volume: ${result.requestsPerSecond} req/s, p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms ` +
      `(${sent} requests, ${errors} errors) -> ${ok ? "meets" : "MISSES"} the target (>= 5000 req/s, p99 < 10 ms)`,
  );
  process.exitCode = ok ? 0 : 1;
} finally {
  await pool.close();
  child.kill("SIGTERM");
}
