/**
 * The database node's event stream (spec 4.5, 6): a typed async iterator over NDJSON with optional
 * reconnect, plus helpers for replication positions and for tracking the primary. Waiting for a
 * position lives in `replication.ts`.
 * @module
 */
import "./node-floor";
import { type Dispatcher, request } from "undici";
import type { z } from "zod";
import { ApiError, EventParseError, InvalidArgumentError, TransportError } from "./errors";
import { responseFieldPath } from "./field-path";
import { NdjsonSplitter } from "./ndjson";
import { Backoff, RECONNECT_BACKOFF } from "./retry";
import {
  type InitEvent,
  InitEventSchema,
  type PlatformEvent,
  type PrimaryChangeEvent,
  PrimaryChangeEventSchema,
  type TxEvent,
  TxEventSchema,
} from "./schemas";
import { requestIdOf } from "./transport";

/** Reconnect pacing: waits grow from `initialDelayMs` to at most `maxDelayMs`, with jitter. */
export interface ReconnectOptions {
  initialDelayMs: number;
  maxDelayMs: number;
}

/** Options of {@link subscribeEvents}. */
export interface SubscribeOptions {
  /** Ends the iteration (quietly, without an error) once aborted. */
  signal?: AbortSignal;
  /** Reconnect after the stream ends or fails (default false). `true` means 250 ms up to 10 s. */
  reconnect?: boolean | ReconnectOptions;
  /** Told about each line that is not a valid event; the stream goes on. Default: a process warning. */
  onMalformedLine?: (line: string, error: Error) => void;
  /** Dispatcher for the HTTP request (default: undici's global one). */
  dispatcher?: Dispatcher;
}

/** Options of {@link parseEvents}. */
export type ParseEventsOptions = Pick<SubscribeOptions, "onMalformedLine">;

/** A replication position: transaction ID plus the database checksum after it (spec 6). */
export interface ReplicationPosition {
  txID: string;
  postApplyChecksum: string;
}

const HEX16 = /^[0-9a-fA-F]{16}$/;
const HEX = /^[0-9a-fA-F]+$/;

/**
 * Parses one NDJSON line into an event. Known types are validated (tx events by a hand-written
 * fast path); unknown types are returned as they are. Unknown fields are kept. Throws an
 * EventParseError naming the field for anything else.
 */
export function parseEventLine(line: string): PlatformEvent {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (err) {
    throw new EventParseError(`not JSON: ${(err as Error).message}`, { cause: err });
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new EventParseError("not a JSON object");
  const type = (value as { type?: unknown }).type;
  if (typeof type !== "string") throw new EventParseError("field type: expected a string");
  switch (type) {
    case "tx":
      if (isTxEvent(value)) return value;
      return checkedEvent(TxEventSchema, value);
    case "init":
      return checkedEvent(InitEventSchema, value);
    case "primaryChange":
      return checkedEvent(PrimaryChangeEventSchema, value);
    default:
      return value as PlatformEvent;
  }
}

function isTxEvent(value: object): value is TxEvent {
  const event = value as { db?: unknown; data?: Record<string, unknown> | null };
  const data = event.data;
  if (typeof event.db !== "string" || typeof data !== "object" || data === null) return false;
  const { txID, postApplyChecksum, pageSize, commit, timestamp } = data;
  return (
    typeof txID === "string" &&
    HEX16.test(txID) &&
    typeof postApplyChecksum === "string" &&
    HEX.test(postApplyChecksum) &&
    Number.isInteger(pageSize) &&
    (pageSize as number) > 0 &&
    Number.isInteger(commit) &&
    (commit as number) >= 0 &&
    typeof timestamp === "string"
  );
}

// Validates with the schema but returns the original object so unknown fields survive.
function checkedEvent<T>(schema: z.ZodType, value: unknown): T {
  const result = schema.safeParse(value);
  if (result.success) return value as T;
  const issue = result.error?.issues[0];
  throw new EventParseError(`field ${responseFieldPath(issue?.path ?? [])}: ${issue?.message ?? "invalid"}`);
}

/**
 * Turns a byte stream of NDJSON into events; malformed lines go to `onMalformedLine` and are
 * skipped. The first event is expected to be `init`; if it is not, that is reported too (the
 * event is still yielded).
 */
export async function* parseEvents(
  source: AsyncIterable<Uint8Array>,
  opts?: ParseEventsOptions,
): AsyncGenerator<PlatformEvent> {
  const report = opts?.onMalformedLine ?? warnMalformed;
  const splitter = new NdjsonSplitter();
  let first = true;
  for await (const chunk of source) {
    const lines = splitter.push(chunk);
    for (let i = 0; i < lines.length; i++) {
      const event = parseOrReport(lines[i] as string, report);
      if (event === undefined) continue;
      if (first) {
        first = false;
        if (event.type !== "init")
          report(lines[i] as string, new EventParseError("expected init as the first event"));
      }
      yield event;
    }
  }
  const last = splitter.end();
  if (last !== undefined) {
    const event = parseOrReport(last, report);
    if (event !== undefined) yield event;
  }
}

function parseOrReport(
  line: string,
  report: (line: string, error: Error) => void,
): PlatformEvent | undefined {
  try {
    return parseEventLine(line);
  } catch (err) {
    report(line, err instanceof Error ? err : new Error(String(err)));
    return undefined;
  }
}

function warnMalformed(line: string, error: Error): void {
  process.emitWarning(
    `malformed event line skipped (${error.message}): ${line.slice(0, 200)}`,
    "PlatformEventWarning",
  );
}

/**
 * Subscribes to a node's event stream (`url` is the full `/events` URL). Iterate with
 * `for await`; break or abort the signal to stop. Without reconnect, a failure to connect or a
 * broken stream throws (ApiError for a non-200 answer, TransportError otherwise) and a stream
 * the node ends finishes the iteration. With reconnect, both lead to a new connection, which
 * starts again with `init`.
 */
export async function* subscribeEvents(url: string, opts?: SubscribeOptions): AsyncGenerator<PlatformEvent> {
  const target = checkUrl(url);
  const signal = opts?.signal;
  const pacing = typeof opts?.reconnect === "object" ? opts.reconnect : undefined;
  if (pacing && !(pacing.initialDelayMs > 0 && pacing.maxDelayMs >= pacing.initialDelayMs)) {
    throw new InvalidArgumentError("reconnect needs 0 < initialDelayMs <= maxDelayMs");
  }
  const reconnect = !!opts?.reconnect;
  const backoff = new Backoff(
    pacing
      ? { ...RECONNECT_BACKOFF, baseMs: pacing.initialDelayMs, maxMs: pacing.maxDelayMs }
      : RECONNECT_BACKOFF,
    { signal },
  );
  while (!signal?.aborted) {
    try {
      const res = await request(target, {
        method: "GET",
        signal,
        headersTimeout: 30_000,
        bodyTimeout: 0, // a quiet stream is normal
        headers: { accept: "application/x-ndjson" },
        ...(opts?.dispatcher ? { dispatcher: opts.dispatcher } : {}),
      });
      if (res.statusCode !== 200) {
        const text = await res.body.text().catch(() => "");
        const requestId = requestIdOf(res.headers);
        throw new ApiError({
          status: res.statusCode,
          platformMessage: text.slice(0, 500),
          method: "GET",
          path: target.pathname,
          ...(requestId ? { requestId } : {}),
        });
      }
      try {
        for await (const event of parseEvents(res.body, opts)) {
          backoff.reset();
          yield event;
        }
      } finally {
        res.body.destroy();
      }
      if (!reconnect) return;
    } catch (err) {
      if (signal?.aborted) return;
      if (!reconnect)
        throw err instanceof ApiError ? err : new TransportError("GET", target.pathname, err, false);
    }
    try {
      await backoff.retry();
    } catch {
      return;
    }
  }
}

/**
 * Checks that `url` is an http(s) URL and parses it; throws InvalidArgumentError otherwise.
 * @internal
 */
export function checkUrl(url: string): URL {
  try {
    const parsed = new URL(url);
    if (parsed.protocol === "http:" || parsed.protocol === "https:") return parsed;
  } catch {
    // Reported below.
  }
  throw new InvalidArgumentError(
    `url must be an http(s) URL of a node's /events stream (got ${JSON.stringify(url)})`,
  );
}

/** True for a `tx` event. */
export function isTx(event: PlatformEvent): event is TxEvent {
  return event.type === "tx";
}

/** True for an `init` event. */
export function isInit(event: PlatformEvent): event is InitEvent {
  return event.type === "init";
}

/** True for a `primaryChange` event. */
export function isPrimaryChange(event: PlatformEvent): event is PrimaryChangeEvent {
  return event.type === "primaryChange";
}

/** The replication position a tx event reports. */
export function replicationPosition(tx: TxEvent): ReplicationPosition {
  return { txID: tx.data.txID, postApplyChecksum: tx.data.postApplyChecksum };
}

/** Orders two hex transaction IDs numerically: negative, zero or positive like a comparator. */
export function compareTxId(a: string, b: string): number {
  if (a.length === b.length) {
    const x = a.toLowerCase();
    const y = b.toLowerCase();
    return x < y ? -1 : x > y ? 1 : 0;
  }
  const diff = BigInt(`0x${a}`) - BigInt(`0x${b}`);
  return diff < 0n ? -1 : diff > 0n ? 1 : 0;
}

/** Size of the database file after the transaction: `commit × pageSize` bytes. */
export function databaseSizeBytes(tx: TxEvent): number {
  return tx.data.commit * tx.data.pageSize;
}

/** Options of {@link PrimaryTracker}. */
export interface PrimaryTrackerOptions {
  /** This node's host and port, reported as the primary while it is primary. */
  selfHostname?: string;
  /** Called after each change of `isPrimary` or `primaryHostname`. */
  onChange?: (tracker: PrimaryTracker) => void;
}

/** Follows `init` and `primaryChange` events to know whether the node is primary and who is. */
export class PrimaryTracker {
  /** Whether the node is primary; undefined until `init` was seen. */
  isPrimary: boolean | undefined;
  /** Host and port of the current primary, when known. */
  primaryHostname: string | undefined;

  /** @param options optional self hostname and change callback */
  constructor(private readonly options: PrimaryTrackerOptions = {}) {}

  /** Feeds one event; returns true when it changed what the tracker knows. */
  feed(event: PlatformEvent): boolean {
    if (!isInit(event) && !isPrimaryChange(event)) return false;
    const isPrimary = event.data.isPrimary;
    const hostname = (isPrimary ? this.options.selfHostname : undefined) || event.data.hostname || undefined;
    if (isPrimary === this.isPrimary && hostname === this.primaryHostname) return false;
    this.isPrimary = isPrimary;
    this.primaryHostname = hostname;
    this.options.onChange?.(this);
    return true;
  }
}
