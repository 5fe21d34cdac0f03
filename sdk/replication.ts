/**
 * Following a database node's replication position (spec 6): {@link ReplicationTracker} keeps the
 * latest position per database from the node's event stream and answers "has it reached this
 * position yet?" at once or when it does; {@link waitForPosition} is the one-shot form.
 * @module
 */
import type { Dispatcher } from "undici";
import { InvalidArgumentError, PlatformError, TimeoutError } from "./errors";
import {
  checkUrl,
  compareTxId,
  isInit,
  isTx,
  PrimaryTracker,
  type ReconnectOptions,
  type ReplicationPosition,
  replicationPosition,
  type SubscribeOptions,
  subscribeEvents,
} from "./events";
import type { PlatformEvent, TxEvent } from "./schemas";

/** Options of {@link ReplicationTracker}. */
export interface ReplicationTrackerOptions {
  /** Closes the tracker (see {@link ReplicationTracker.close}) once aborted. */
  signal?: AbortSignal;
  /**
   * Reconnect after the stream ends or fails (default true: 250 ms up to 10 s). Without it, the
   * first failure or end of the stream stops the tracker and rejects every pending wait with it.
   */
  reconnect?: boolean | ReconnectOptions;
  /** Dispatcher for the HTTP request (default: undici's global one). */
  dispatcher?: Dispatcher;
  /** Told about each line that is not a valid event; the stream goes on. Default: a process warning. */
  onMalformedLine?: (line: string, error: Error) => void;
}

/** Options of the tracker's waits ({@link ReplicationTracker.waitFor} and the like). */
export interface TrackerWaitOptions {
  /** Gives up with a TimeoutError after this long (default 60 000 ms; `Infinity` waits on). */
  timeoutMs?: number;
  /** Rejects the wait with the signal's reason once aborted; the tracker goes on. */
  signal?: AbortSignal;
}

/** Options of {@link waitForPosition}. */
export interface WaitForPositionOptions {
  /** Gives up with a TimeoutError after this long (default 60 000 ms). */
  timeoutMs?: number;
  /** Rejects with the signal's reason once aborted. */
  signal?: AbortSignal;
  /** Dispatcher for the HTTP request (default: undici's global one). */
  dispatcher?: Dispatcher;
}

/**
 * The node reported the awaited txID with a different checksum: its copy of the database is not
 * the one the position was taken from (for instance, writes lost in a failover). Waiting longer
 * cannot help.
 */
export class ReplicationDivergedError extends PlatformError {
  override readonly name = "ReplicationDivergedError";
  readonly code = "REPLICATION_DIVERGED" as const;
  /**
   * @param db the database
   * @param expected the position waited for
   * @param actual the position the node reported for the same txID
   */
  constructor(
    readonly db: string,
    readonly expected: ReplicationPosition,
    readonly actual: ReplicationPosition,
  ) {
    super(
      `database ${db} diverged at txID ${actual.txID}: expected checksum ${expected.postApplyChecksum}, the node reports ${actual.postApplyChecksum}`,
    );
  }
}

/**
 * The tracker stopped following (closed, or its stream ended or failed without reconnect); the
 * message says why and, for a pending wait, what it waited for.
 */
export class ReplicationStoppedError extends PlatformError {
  override readonly name = "ReplicationStoppedError";
  readonly code = "REPLICATION_STOPPED" as const;
}

/** A position to wait for; without a checksum, any checksum at that txID counts. */
interface Target {
  txID: string;
  postApplyChecksum: string | undefined;
}

/** A pending wait: `check` answers true (done), an Error (failed) or false (not yet) per event. */
interface Waiter {
  check(event: PlatformEvent): boolean | Error;
  settle(outcome: { event: PlatformEvent } | { error: unknown }): void;
  /** What is awaited, for the close message. */
  what: string;
}

const HEX = /^[0-9a-fA-F]+$/;
const DEFAULT_TIMEOUT_MS = 60_000;
/** The tx event each position handed out by a wait came from (for {@link waitForPosition}). */
const sourceEvent = new WeakMap<ReplicationPosition, TxEvent>();

function toTarget(position: ReplicationPosition | string): Target {
  const txID = typeof position === "string" ? position : position?.txID;
  const checksum = typeof position === "string" ? undefined : position?.postApplyChecksum || undefined;
  if (
    typeof txID !== "string" ||
    !HEX.test(txID) ||
    (checksum !== undefined && !HEX.test(String(checksum)))
  ) {
    throw new InvalidArgumentError(
      `position must be a hex txID or { txID, postApplyChecksum } in hex (got ${JSON.stringify(position)})`,
    );
  }
  return { txID, postApplyChecksum: checksum };
}

/** Where `latest` stands against `target`: reached, not yet (false), or diverged (an Error). */
function progress(db: string, latest: ReplicationPosition, target: Target): boolean | Error {
  const order = compareTxId(latest.txID, target.txID);
  if (order !== 0) return order > 0;
  if (
    target.postApplyChecksum === undefined ||
    latest.postApplyChecksum.toLowerCase() === target.postApplyChecksum.toLowerCase()
  )
    return true;
  return new ReplicationDivergedError(
    db,
    { txID: target.txID, postApplyChecksum: target.postApplyChecksum },
    latest,
  );
}

function describeTarget(target: Target): string {
  return `txID ${target.txID}${target.postApplyChecksum ? ` (checksum ${target.postApplyChecksum})` : ""}`;
}

/**
 * Follows one node's event stream from the moment it is constructed and keeps, per database, the
 * latest replication position seen, plus whether the node is primary. Because the stream never
 * replays past transactions, start the tracker BEFORE the write you will wait for: a position the
 * node reached while nobody was listening can only be learnt from a later transaction.
 *
 * Memory stays bounded: one tx event per database and one entry per pending wait.
 *
 * @example
 * ```ts
 * const replica = new ReplicationTracker(replicaEventsUrl);
 * await replica.ready();
 * // ... write on the primary, learn its position `pos` ...
 * await replica.waitFor("app.db", pos, { timeoutMs: 10_000 }); // now safe to read
 * replica.close();
 * ```
 */
export class ReplicationTracker {
  private readonly latest = new Map<string, TxEvent>();
  private readonly waiters = new Set<Waiter>();
  private readonly primary = new PrimaryTracker();
  private readonly abort = new AbortController();
  private readonly host: string;
  private readonly onOwnerAbort: (() => void) | undefined;
  private initSeen = false;
  /** Why the tracker stopped following (closed, or the stream failed without reconnect). */
  private stopped: Error | undefined;

  /**
   * Starts following at once.
   * @param url the node's full `/events` URL
   * @param options reconnect (default true), signal, dispatcher, onMalformedLine
   */
  constructor(url: string, options: ReplicationTrackerOptions = {}) {
    this.host = checkUrl(url).host;
    const subscribe: SubscribeOptions = {
      signal: this.abort.signal,
      reconnect: options.reconnect ?? true,
    };
    if (options.dispatcher) subscribe.dispatcher = options.dispatcher;
    if (options.onMalformedLine) subscribe.onMalformedLine = options.onMalformedLine;
    const owner = options.signal;
    if (owner) {
      this.onOwnerAbort = () => this.close();
      owner.addEventListener("abort", this.onOwnerAbort, { once: true });
      if (owner.aborted) this.close();
    }
    void this.follow(url, subscribe, owner);
  }

  /** Whether the node is primary; undefined until `init` arrived. */
  get isPrimary(): boolean | undefined {
    return this.primary.isPrimary;
  }

  /** Host and port of the current primary, when the node reported it. */
  get primaryHostname(): string | undefined {
    return this.primary.primaryHostname;
  }

  /** The latest position seen for `db` (a copy), or undefined when no tx of it was seen yet. */
  position(db: string): ReplicationPosition | undefined {
    const tx = this.latest.get(db);
    return tx ? replicationPosition(tx) : undefined;
  }

  /**
   * Resolves once the stream's `init` arrived (at once if it already did). Rejects after
   * `timeoutMs` (default 60 s) with a TimeoutError, or when the tracker is closed or stopped.
   */
  ready(opts?: TrackerWaitOptions): Promise<void> {
    if (this.stopped) return Promise.reject(this.stopped);
    if (this.initSeen) return Promise.resolve();
    return this.wait(opts, "init", isInit, (ms) => `no init event from ${this.host} within ${ms} ms`).then(
      () => undefined,
    );
  }

  /**
   * Resolves once database `db` reached `position` (a `{ txID, postApplyChecksum }` or a bare
   * hex txID): at once when the latest position seen already has, else on the first tx that
   * does. Reached means a later txID, or the same txID with the same checksum (any checksum for
   * a bare txID). Resolves with the position that reached it.
   *
   * Rejects with {@link ReplicationDivergedError} when the same txID comes with a different
   * checksum, with a TimeoutError (naming the database, the target and the last position seen)
   * after `timeoutMs` (default 60 s), with the signal's reason when `signal` aborts, and when the
   * tracker is closed or stopped. An invalid position rejects with InvalidArgumentError.
   */
  waitFor(
    db: string,
    position: ReplicationPosition | string,
    opts?: TrackerWaitOptions,
  ): Promise<ReplicationPosition> {
    let target: Target;
    try {
      target = toTarget(position);
    } catch (err) {
      return Promise.reject(err);
    }
    if (this.stopped) return Promise.reject(this.stopped);
    const now = this.latest.get(db);
    const outcome = now ? progress(db, replicationPosition(now), target) : false;
    if (outcome instanceof Error) return Promise.reject(outcome);
    if (outcome && now) return Promise.resolve(handOut(now));
    const what = describeTarget(target);
    return this.wait(
      opts,
      `database ${db} to reach ${what}`,
      (event) => isTx(event) && event.db === db && progress(db, replicationPosition(event), target),
      (ms) => {
        const last = this.position(db);
        return `database ${db} did not reach ${what} within ${ms} ms; last seen: ${
          last ? `txID ${last.txID} checksum ${last.postApplyChecksum}` : "no tx event for it"
        }`;
      },
    ).then((event) => handOut(event as TxEvent));
  }

  /**
   * Resolves with the next tx event of `db` that arrives after the call, e.g. to learn the
   * primary's position right after a single write (call it before writing). Rejects like
   * {@link ReplicationTracker.waitFor} on timeout, abort or close.
   */
  nextTx(db: string, opts?: TrackerWaitOptions): Promise<TxEvent> {
    if (this.stopped) return Promise.reject(this.stopped);
    return this.wait(
      opts,
      `the next tx of database ${db}`,
      (event) => isTx(event) && event.db === db,
      (ms) => `no tx event for database ${db} within ${ms} ms`,
    ) as Promise<TxEvent>;
  }

  /**
   * Stops following and rejects every pending wait (later waits reject too). The positions seen
   * stay readable. Calling it again does nothing.
   */
  close(): void {
    this.stop(new ReplicationStoppedError(`ReplicationTracker for ${this.host} is closed`), true);
  }

  /** Stops following; pending waits reject with `reason` (`closed`: with a message per wait). */
  private stop(reason: Error, closed = false): void {
    if (this.stopped) return;
    this.stopped = reason;
    this.abort.abort();
    for (const waiter of [...this.waiters]) {
      const error = closed
        ? new ReplicationStoppedError(`${reason.message} (while waiting for ${waiter.what})`)
        : reason;
      waiter.settle({ error });
    }
  }

  private async follow(url: string, subscribe: SubscribeOptions, owner: AbortSignal | undefined) {
    try {
      for await (const event of subscribeEvents(url, subscribe)) {
        if (this.stopped) break;
        this.handle(event);
      }
      this.stop(new ReplicationStoppedError(`the event stream of ${this.host} ended`));
    } catch (err) {
      this.stop(err instanceof Error ? err : new ReplicationStoppedError(String(err)));
    } finally {
      if (this.onOwnerAbort) owner?.removeEventListener("abort", this.onOwnerAbort);
    }
  }

  private handle(event: PlatformEvent): void {
    this.primary.feed(event);
    if (isInit(event)) this.initSeen = true;
    else if (isTx(event)) this.latest.set(event.db, event);
    for (const waiter of [...this.waiters]) {
      const outcome = waiter.check(event);
      if (outcome instanceof Error) waiter.settle({ error: outcome });
      else if (outcome) waiter.settle({ event });
    }
  }

  /** Registers a waiter until `check` settles it, the timeout, the signal or close. */
  private wait(
    opts: TrackerWaitOptions | undefined,
    what: string,
    check: Waiter["check"],
    timeoutMessage: (ms: number) => string,
  ): Promise<PlatformEvent> {
    const timeoutMs = opts?.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    if (!(typeof timeoutMs === "number" && timeoutMs > 0)) {
      return Promise.reject(
        new InvalidArgumentError(`timeoutMs must be a positive number (got ${String(timeoutMs)})`),
      );
    }
    const signal = opts?.signal;
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const onAbort = () => waiter.settle({ error: signal?.reason });
      const waiter: Waiter = {
        check,
        what,
        settle: (outcome) => {
          if (!this.waiters.delete(waiter)) return;
          clearTimeout(timer);
          signal?.removeEventListener("abort", onAbort);
          if ("event" in outcome) resolve(outcome.event);
          else reject(outcome.error);
        },
      };
      this.waiters.add(waiter);
      signal?.addEventListener("abort", onAbort, { once: true });
      if (Number.isFinite(timeoutMs)) {
        timer = setTimeout(
          () => waiter.settle({ error: new TimeoutError(timeoutMessage(timeoutMs)) }),
          timeoutMs,
        );
      }
    });
  }
}

function handOut(tx: TxEvent): ReplicationPosition {
  const position = replicationPosition(tx);
  sourceEvent.set(position, tx);
  return position;
}

/**
 * Resolves with the first tx event of database `db` at or past `position` (a later txID, or the
 * same txID with the same checksum when a checksum is given) that arrives after the call;
 * reconnects as needed. Rejects with a TimeoutError after `timeoutMs` (default 60 s), with
 * {@link ReplicationDivergedError} when the same txID comes with a different checksum, and with
 * the signal's reason once it aborts.
 *
 * It is a one-shot {@link ReplicationTracker}: it only learns positions from transactions written
 * after it connected, so a node that already reached `position` before the call (a fast replica)
 * is only noticed at its next transaction — or never, and the wait times out. To avoid missing a
 * fast replica, start a ReplicationTracker before the write and use its `waitFor` instead.
 */
export async function waitForPosition(
  url: string,
  db: string,
  position: ReplicationPosition | string,
  opts?: WaitForPositionOptions,
): Promise<TxEvent> {
  toTarget(position);
  const options: ReplicationTrackerOptions = { reconnect: true, onMalformedLine: () => {} };
  if (opts?.dispatcher) options.dispatcher = opts.dispatcher;
  const tracker = new ReplicationTracker(url, options);
  try {
    const waitOpts: TrackerWaitOptions = { timeoutMs: opts?.timeoutMs ?? DEFAULT_TIMEOUT_MS };
    if (opts?.signal) waitOpts.signal = opts.signal;
    const reached = await tracker.waitFor(db, position, waitOpts);
    return sourceEvent.get(reached) as TxEvent;
  } finally {
    tracker.close();
  }
}
