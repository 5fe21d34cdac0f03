// Event parsing + validation through the sdk vs a raw split + JSON.parse baseline over the same
// in-process byte stream. Run `npx tsc -p tsconfig.json` first; then
// `node --expose-gc bench/sdk-events.mjs [events]` (default 10 million).
import { createRequire } from "node:module";
import { join } from "node:path";
import { Readable } from "node:stream";

const require = createRequire(import.meta.url);
const { parseEvents } = require(join(import.meta.dirname, "..", "dist/sdk/events.js"));

const TOTAL = Number(process.argv[2] ?? 10_000_000);
const BLOCK_EVENTS = 100_000;
const CHUNK = 64 * 1024 + 13; // odd size: lines and UTF-8 characters straddle chunk boundaries

// One block of distinct events, replayed until TOTAL: the generator costs next to nothing.
const lines = [];
lines.push(JSON.stringify({ type: "init", data: { isPrimary: false, hostname: "node-a:20202" } }));
for (let i = 1; i < BLOCK_EVENTS; i++) {
  if (i % 1000 === 0)
    lines.push(JSON.stringify({ type: "primaryChange", data: { isPrimary: false, hostname: "node-b:1" } }));
  else
    lines.push(
      JSON.stringify({
        type: "tx",
        db: i % 7 === 0 ? "données.db" : "app.db",
        data: {
          txID: i.toString(16).padStart(16, "0"),
          postApplyChecksum: (i * 2654435761).toString(16).padStart(16, "0").slice(-16),
          pageSize: 4096,
          commit: i,
          timestamp: "2025-01-01T00:00:00.000Z",
        },
      }),
    );
}
const block = Buffer.from(`${lines.join("\n")}\n`);

function source() {
  const rounds = Math.ceil(TOTAL / BLOCK_EVENTS);
  return Readable.from(
    (function* () {
      for (let r = 0; r < rounds; r++)
        for (let o = 0; o < block.length; o += CHUNK) yield block.subarray(o, o + CHUNK);
    })(),
    { objectMode: true, highWaterMark: 4 },
  );
}

async function baseline() {
  let count = 0;
  let rest = "";
  for await (const chunk of source()) {
    const parts = (rest + chunk.toString("utf8")).split("\n");
    rest = parts.pop() ?? "";
    for (const line of parts) {
      if (line) {
        JSON.parse(line);
        count++;
      }
    }
  }
  return count;
}

async function viaSdk() {
  let count = 0;
  let bad = 0;
  for await (const ev of parseEvents(source(), { onMalformedLine: () => bad++ })) if (ev.type) count++;
  if (bad) throw new Error(`${bad} malformed lines`);
  return count;
}

const mb = (n) => Math.round(n / 1024 / 1024);
async function measure(name, fn) {
  globalThis.gc?.();
  const rssBefore = process.memoryUsage().rss;
  let peak = rssBefore;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 100);
  const started = process.hrtime.bigint();
  const count = await fn();
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  clearInterval(sampler);
  globalThis.gc?.();
  const rssAfter = process.memoryUsage().rss;
  return {
    name,
    events: count,
    seconds: Number(seconds.toFixed(2)),
    eventsPerSec: Math.round(count / seconds),
    rssBeforeMB: mb(rssBefore),
    rssPeakMB: mb(peak),
    rssAfterMB: mb(rssAfter),
  };
}

const base = await measure("raw split + JSON.parse", baseline);
const sdk = await measure("sdk parseEvents (split, parse, validate)", viaSdk);
console.log(
  JSON.stringify(
    { base, sdk, ratio: Number((sdk.eventsPerSec / base.eventsPerSec).toFixed(3)), target: ">= 0.5" },
    null,
    2,
  ),
);
