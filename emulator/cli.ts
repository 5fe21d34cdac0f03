#!/usr/bin/env node
// An older Node stops here with one line saying what to do.
import "../sdk/node-floor-bin";
import { parseArgs } from "node:util";
import type { TimingOptions } from "./options";
import { whenParentGone } from "./parent-watch";
import { RESPONSE_MODES, type ResponseMode } from "./responses";
import { startEmulator } from "./server";

const USAGE = `usage: platform-emulator [--host 127.0.0.1] [--port 4280] [--token TOKEN] [--state FILE]
       [--seed FILE] [--task-socket PATH] [--events-port PORT] [--fault-seed N] [--quiet]
       [--restore-delay-ms N] [--snapshot-list-delay-ms N] [--warm-after-ms N] [--cold-after-ms N]
       [--replication-lag-ms N] [--responses full|sparse] [--rate-limit N]`;

const TIMING_FLAGS: Record<string, keyof TimingOptions> = {
  "restore-delay-ms": "restoreDelayMs",
  "snapshot-list-delay-ms": "snapshotListDelayMs",
  "warm-after-ms": "warmAfterMs",
  "cold-after-ms": "coldAfterMs",
  "replication-lag-ms": "replicationLagMs",
};

function integer(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0)
    throw new Error(`--${name} must be a non-negative integer, got "${value}"`);
  return n;
}

/** `--rate-limit 10` or `--rate-limit 10/s`: requests per second per token. */
function rate(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value.replace(/\/s$/, ""));
  if (!(Number.isFinite(n) && n > 0))
    throw new Error(`--rate-limit must be a positive number of requests per second, got "${value}"`);
  return n;
}

function responses(value: string | undefined): ResponseMode | undefined {
  if (value === undefined || (RESPONSE_MODES as readonly string[]).includes(value))
    return value as ResponseMode | undefined;
  throw new Error(`--responses must be one of ${RESPONSE_MODES.join(", ")}, got "${value}"`);
}

async function main(): Promise<void> {
  // node:util parseArgs is built into Node: no dependency for a handful of flags.
  const { values } = parseArgs({
    options: {
      host: { type: "string" },
      port: { type: "string" },
      token: { type: "string" },
      state: { type: "string" },
      seed: { type: "string" },
      "task-socket": { type: "string" },
      "events-port": { type: "string" },
      "fault-seed": { type: "string" },
      quiet: { type: "boolean" },
      responses: { type: "string" },
      "rate-limit": { type: "string" },
      help: { type: "boolean", short: "h" },
      ...Object.fromEntries(Object.keys(TIMING_FLAGS).map((k) => [k, { type: "string" as const }])),
    },
    strict: true,
    allowPositionals: false,
  });
  if (values.help) {
    process.stderr.write(`${USAGE}\n`);
    return;
  }
  const flags = values as Record<string, string | boolean | undefined>;
  const timing: TimingOptions = {};
  for (const [flag, key] of Object.entries(TIMING_FLAGS)) {
    const n = integer(flag, flags[flag] as string | undefined);
    if (n !== undefined) timing[key] = n;
  }
  const running = await startEmulator({
    host: values.host,
    port: integer("port", values.port) ?? 4280,
    token: values.token,
    stateFile: values.state,
    seedFile: values.seed,
    taskSocket: values["task-socket"],
    eventsPort: integer("events-port", values["events-port"]) ?? 0,
    faultSeed: integer("fault-seed", values["fault-seed"]),
    quiet: values.quiet,
    responses: responses(values.responses),
    rateLimitPerSecond: rate(values["rate-limit"]),
    timing,
  });
  // Whoever reads the output may be gone (the parent that started it): the emulator still closes.
  for (const stream of [process.stdout, process.stderr]) stream.on("error", () => undefined);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`platform-emulator: ${signal}, shutting down\n`);
    running.close().then(
      () => process.exit(0),
      (err: Error) => {
        process.stderr.write(`platform-emulator: error while closing: ${err.message}\n`);
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
  // The terminal that ran it closed.
  process.on("SIGHUP", () => stop("SIGHUP"));
  // The process that started it (a shell, `npx`) ended without passing a signal on.
  whenParentGone(() => stop("parent process exited"));
  // Handlers first: a caller may signal as soon as it reads the start line.
  const { url, token, taskSocket, eventsUrl } = running;
  process.stdout.write(`${JSON.stringify({ url, token, taskSocket, eventsUrl })}\n`);
}

main().catch((err: Error) => {
  process.stderr.write(`platform-emulator: ${err.message}\n${USAGE}\n`);
  process.exit(2);
});
