/**
 * The heartbeat behind `TaskClient.hold`: keep a short-lived task alive by refreshing it, and
 * delete it when done, on SIGINT/SIGTERM and on normal exit. A crash just lets it expire.
 * @module
 */
import { spawnSync } from "node:child_process";
import { InvalidArgumentError, isNotFound } from "./errors";
import { encodePathSegment } from "./paths";
import { TASK_MAX_EXPIRE_SECONDS, type Task, type TaskExpire } from "./schemas";
import type { CallOptions } from "./transport";

/** Options of `TaskClient.hold`. */
export interface HoldOptions {
  /** Expiry given to the task at each refresh, in seconds, 1..3600 (default 60). */
  ttlSeconds?: number;
  /** Pause between refreshes in ms, less than the ttl (default a third of the ttl). */
  refreshEveryMs?: number;
  /** Told about every failed refresh; refreshing goes on. Default: a process warning. */
  onError?: (error: unknown) => void;
}

/** A task kept alive until {@link TaskHold.release}. */
export interface TaskHold {
  /** Task name. */
  readonly name: string;
  /** `expires_at` of the last successful create or refresh. */
  readonly expiresAt: string;
  /** True once released. */
  readonly released: boolean;
  /** Stops refreshing and deletes the task (a task already gone is fine). Idempotent. */
  release(): Promise<void>;
}

/** The calls a hold needs; implemented by TaskClient. */
export interface TaskApi {
  upsert(name: string, expire: TaskExpire, opts?: CallOptions): Promise<Task>;
  delete(name: string, opts?: CallOptions): Promise<void>;
}

const active = new Set<Hold>();
const RELEASE_TIMEOUT_MS = 2_000;

class Hold implements TaskHold {
  expiresAt: string;
  released = false;
  private timer: NodeJS.Timeout | undefined;
  private inflight: Promise<unknown> | undefined;
  private readonly abort = new AbortController();
  private releasing: Promise<void> | undefined;

  constructor(
    private readonly api: TaskApi,
    readonly socketPath: string,
    readonly name: string,
    private readonly ttlSeconds: number,
    private readonly refreshEveryMs: number,
    private readonly onError: (error: unknown) => void,
    first: Task,
  ) {
    this.expiresAt = first.expires_at;
    this.schedule(refreshEveryMs);
  }

  private schedule(ms: number): void {
    // Unref'd: a hold alone never keeps the process alive; exit handlers clean it up instead.
    this.timer = setTimeout(() => this.refresh(), ms).unref();
  }

  private refresh(): void {
    const run = this.api.upsert(this.name, this.ttlSeconds, { signal: this.abort.signal });
    this.inflight = run;
    run.then(
      (task) => {
        if (this.released) return;
        this.expiresAt = task.expires_at;
        this.schedule(this.refreshEveryMs);
      },
      (error) => {
        if (this.released) return;
        safeCall(this.onError, error);
        this.schedule(Math.max(100, Math.floor(this.refreshEveryMs / 4)));
      },
    );
  }

  release(): Promise<void> {
    this.releasing ??= this.doRelease();
    return this.releasing;
  }

  private async doRelease(): Promise<void> {
    this.released = true;
    clearTimeout(this.timer);
    this.abort.abort();
    // A refresh landing after the delete would bring the task back.
    await this.inflight?.catch(() => {});
    try {
      await this.api.delete(this.name, { signal: AbortSignal.timeout(RELEASE_TIMEOUT_MS) });
    } catch (error) {
      if (!isNotFound(error)) throw error;
    } finally {
      active.delete(this);
      if (active.size === 0) uninstallHandlers();
    }
  }

  /** Last resort from the synchronous `exit` event: one DELETE from a short-lived child process. */
  releaseSync(): void {
    this.released = true;
    clearTimeout(this.timer);
    active.delete(this);
    spawnSync(process.execPath, ["-e", SYNC_DELETE, this.socketPath, encodePathSegment(this.name)], {
      timeout: RELEASE_TIMEOUT_MS,
      stdio: "ignore",
    });
  }
}

const SYNC_DELETE = `const s=require("node:net").connect(process.argv[1]);s.setTimeout(${RELEASE_TIMEOUT_MS},()=>s.destroy());s.on("error",()=>{});s.on("data",()=>s.destroy());s.write("DELETE /v1/tasks/"+process.argv[2]+" HTTP/1.1\\r\\nHost: platform\\r\\nConnection: close\\r\\n\\r\\n");`;

/** Validates the options, creates (upserts) the task and starts refreshing it. */
export async function holdTask(
  api: TaskApi,
  socketPath: string,
  name: string,
  options: HoldOptions,
): Promise<TaskHold> {
  if (typeof name !== "string" || name === "")
    throw new InvalidArgumentError("name must be a non-empty string");
  const ttlSeconds = options.ttlSeconds ?? 60;
  if (!Number.isInteger(ttlSeconds) || ttlSeconds < 1 || ttlSeconds > TASK_MAX_EXPIRE_SECONDS) {
    throw new InvalidArgumentError(
      `ttlSeconds must be an integer from 1 to ${TASK_MAX_EXPIRE_SECONDS} (got ${options.ttlSeconds})`,
    );
  }
  const refreshEveryMs = options.refreshEveryMs ?? Math.floor((ttlSeconds * 1000) / 3);
  if (!Number.isFinite(refreshEveryMs) || refreshEveryMs <= 0 || refreshEveryMs >= ttlSeconds * 1000) {
    throw new InvalidArgumentError(
      `refreshEveryMs must be positive and shorter than ttlSeconds (${ttlSeconds * 1000} ms); got ${options.refreshEveryMs}`,
    );
  }
  if (options.onError !== undefined && typeof options.onError !== "function") {
    throw new InvalidArgumentError("onError must be a function");
  }
  const onError =
    options.onError ??
    ((error: unknown) =>
      process.emitWarning(`task hold ${name}: refresh failed: ${String(error)}`, "TaskHoldWarning"));
  const first = await api.upsert(name, ttlSeconds);
  const hold = new Hold(api, socketPath, name, ttlSeconds, refreshEveryMs, onError, first);
  active.add(hold);
  installHandlers();
  return hold;
}

let installed = false;
let signalled = false;

function installHandlers(): void {
  if (installed) return;
  installed = true;
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  process.on("beforeExit", onBeforeExit);
  process.on("exit", onExit);
}

function uninstallHandlers(): void {
  if (!installed) return;
  installed = false;
  signalled = false;
  process.off("SIGINT", onSignal);
  process.off("SIGTERM", onSignal);
  process.off("beforeExit", onBeforeExit);
  process.off("exit", onExit);
}

function releaseAll(): Promise<unknown> {
  return Promise.allSettled([...active].map((hold) => hold.release()));
}

function onSignal(signal: NodeJS.Signals): void {
  // A second signal during cleanup means "now": stop waiting.
  if (signalled) {
    reraise(signal);
    return;
  }
  signalled = true;
  void releaseAll().then(() => reraise(signal));
}

function reraise(signal: NodeJS.Signals): void {
  uninstallHandlers();
  // Only when nobody else handles the signal is its default behaviour (exit) restored.
  if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
}

function onBeforeExit(): void {
  void releaseAll();
}

function onExit(): void {
  for (const hold of [...active]) hold.releaseSync();
}

function safeCall(fn: (error: unknown) => void, error: unknown): void {
  try {
    fn(error);
  } catch {
    // A throwing onError must not stop the heartbeat.
  }
}
