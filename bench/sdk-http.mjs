// GET volume throughput: the sdk vs raw undici.request, same emulator, same Pool (same
// connections). Run `npx tsc -p tsconfig.json` first; then `node bench/sdk-http.mjs [requests] [concurrency]`.
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";

const require = createRequire(import.meta.url);
const root = join(import.meta.dirname, "..");
const { Pool, request } = require("undici");
const { PlatformClient } = require(join(root, "dist/sdk/index.js"));

const TOTAL = Number(process.argv[2] ?? 20_000);
const CONCURRENCY = Number(process.argv[3] ?? 50);
const ROUNDS = 3;

// The emulator runs in its own process so that it does not share this process's event loop.
const child = spawn(
  process.execPath,
  [
    "-e",
    `require(${JSON.stringify(join(root, "dist/emulator/index.js"))}).startEmulator({ port: 0, eventsPort: 0, quiet: true,
      taskSocket: ${JSON.stringify(join(tmpdir(), `bench-${process.pid}.sock`))} })
      .then((e) => console.log(JSON.stringify({ url: e.url, token: e.token })))`,
  ],
  { stdio: ["ignore", "pipe", "inherit"] },
);
const { url, token } = await new Promise((resolve) =>
  child.stdout.once("data", (d) => resolve(JSON.parse(String(d)))),
);

const pool = new Pool(url, { connections: CONCURRENCY, pipelining: 1 });
const client = new PlatformClient({ baseUrl: url, token, dispatcher: pool });
const vol = await client.volumes.create("demo-app", { name: "bench_vol", size_gb: 3 });
const path = `/v1/apps/demo-app/volumes/${vol.id}`;
const headers = { authorization: `Bearer ${token}`, accept: "application/json" };

async function raw() {
  const res = await request(url + path, { dispatcher: pool, headers });
  if (res.statusCode !== 200) throw new Error(`status ${res.statusCode}`);
  return res.body.json();
}
const viaSdk = () => client.volumes.get("demo-app", vol.id);

async function run(fn, total) {
  let next = 0;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next++ < total) await fn();
    }),
  );
  return total / (Number(process.hrtime.bigint() - started) / 1e9);
}

await run(raw, 2000);
await run(viaSdk, 2000);
const results = { raw: [], sdk: [] };
for (let i = 0; i < ROUNDS; i++) {
  // Alternate the order so neither side always runs on a warmer emulator.
  if (i % 2 === 0) {
    results.raw.push(await run(raw, TOTAL));
    results.sdk.push(await run(viaSdk, TOTAL));
  } else {
    results.sdk.push(await run(viaSdk, TOTAL));
    results.raw.push(await run(raw, TOTAL));
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rawRps = median(results.raw);
const sdkRps = median(results.sdk);
console.log(
  JSON.stringify(
    {
      bench: "GET volume",
      requests: TOTAL,
      concurrency: CONCURRENCY,
      rounds: ROUNDS,
      rawReqPerSec: Math.round(rawRps),
      sdkReqPerSec: Math.round(sdkRps),
      ratio: Number((sdkRps / rawRps).toFixed(3)),
      target: ">= 0.9",
    },
    null,
    2,
  ),
);
await pool.close();
child.kill();
