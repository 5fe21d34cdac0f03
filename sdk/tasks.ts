/**
 * The local task API over the instance's unix socket (spec 4.4), host `platform`. Requests go
 * through the same Transport as the remote API.
 * @module
 */
import "./node-floor";
import { Client } from "undici";
import { InvalidArgumentError } from "./errors";
import { apiPath } from "./paths";
import {
  parseExpireSeconds,
  TASK_MAX_EXPIRE_SECONDS,
  type Task,
  type TaskExpire,
  TaskListSchema,
  TaskSchema,
} from "./schemas";
import { type HoldOptions, holdTask, type TaskHold } from "./task-hold";
import { type CallOptions, Transport } from "./transport";

/** Default path of the task socket inside an instance. */
export const DEFAULT_TASK_SOCKET = "/.platform/api.sock";

/** Options of {@link TaskClient}. */
export interface TaskClientOptions {
  /** Unix socket of the task API (default `/.platform/api.sock`). */
  socketPath?: string;
}

/**
 * Client of the local task API. A live task keeps the instance running; see {@link TaskClient.hold}
 * for a heartbeat that keeps one alive for as long as needed.
 */
export class TaskClient {
  private readonly transport: Transport;
  private readonly socketPath: string;

  /** Throws InvalidArgumentError when `socketPath` is not a non-empty string. */
  constructor(options: TaskClientOptions = {}) {
    const socketPath = options.socketPath ?? DEFAULT_TASK_SOCKET;
    if (typeof socketPath !== "string" || socketPath === "") {
      throw new InvalidArgumentError("socketPath must be a non-empty string");
    }
    this.socketPath = socketPath;
    this.transport = new Transport({
      origin: "http://platform",
      pathPrefix: "",
      dispatcher: new Client("http://platform", { socketPath, keepAliveTimeout: 10_000 }),
      headers: {},
      timeoutMs: 10_000,
      deadlineMs: 30_000,
      maxRetries: 2,
    });
  }

  /** Lists the live tasks. */
  async list(opts?: CallOptions): Promise<Task[]> {
    const res = await this.transport.request({
      method: "GET",
      path: "/v1/tasks",
      schema: TaskListSchema,
      signal: opts?.signal,
    });
    return res.tasks;
  }

  /** Gets one task; ApiError 404 (`isNotFound`) when it does not exist. */
  get(name: string, opts?: CallOptions): Promise<Task> {
    return this.transport.request({
      method: "GET",
      path: apiPath`/v1/tasks/${name}`,
      schema: TaskSchema,
      signal: opts?.signal,
    });
  }

  /** Creates a task living `expire` (seconds or `30m`/`1h`, at most 1 h); 409 when the name is taken. */
  create(name: string, expire: TaskExpire, opts?: CallOptions): Promise<Task> {
    checkName(name);
    checkExpire(expire);
    return this.transport.request({
      method: "POST",
      path: "/v1/tasks",
      body: { name, expire },
      schema: TaskSchema,
      signal: opts?.signal,
    });
  }

  /** Creates the task or moves its expiry forward (PUT /v1/tasks/:name). */
  upsert(name: string, expire: TaskExpire, opts?: CallOptions): Promise<Task> {
    checkExpire(expire);
    return this.transport.request({
      method: "PUT",
      path: apiPath`/v1/tasks/${name}`,
      body: { expire },
      schema: TaskSchema,
      signal: opts?.signal,
    });
  }

  /** Same upsert with the name in the body (PUT /v1/tasks). */
  upsertByBody(name: string, expire: TaskExpire, opts?: CallOptions): Promise<Task> {
    checkName(name);
    checkExpire(expire);
    return this.transport.request({
      method: "PUT",
      path: "/v1/tasks",
      body: { name, expire },
      schema: TaskSchema,
      signal: opts?.signal,
    });
  }

  /** Deletes a task; ApiError 404 when it does not exist. */
  async delete(name: string, opts?: CallOptions): Promise<void> {
    await this.transport.request({
      method: "DELETE",
      path: apiPath`/v1/tasks/${name}`,
      schema: undefined,
      signal: opts?.signal,
    });
  }

  /**
   * Holds task `name` until released: upserts it now with `ttlSeconds`, refreshes it every
   * `refreshEveryMs`, and deletes it on `release()`, SIGINT, SIGTERM or normal process exit.
   * If the process crashes the task simply expires.
   */
  hold(name: string, options?: HoldOptions): Promise<TaskHold> {
    return holdTask(this, this.socketPath, name, options ?? {});
  }

  /** Closes the socket connection. Active holds stop being able to refresh. */
  async close(): Promise<void> {
    await this.transport.dispatcher.close();
  }
}

function checkName(name: unknown): void {
  if (typeof name !== "string" || name === "")
    throw new InvalidArgumentError("name must be a non-empty string");
}

/** Rejects an `expire` that cannot be parsed or lies outside 1..3600 seconds, before sending. */
export function checkExpire(expire: unknown): number {
  const seconds =
    typeof expire === "number" || typeof expire === "string" ? parseExpireSeconds(expire) : undefined;
  if (seconds === undefined) {
    throw new InvalidArgumentError(
      `expire must be whole seconds or a duration such as "30m" or "1h" (got ${JSON.stringify(expire)})`,
    );
  }
  if (seconds < 1 || seconds > TASK_MAX_EXPIRE_SECONDS) {
    throw new InvalidArgumentError(
      `expire must be from 1 s to ${TASK_MAX_EXPIRE_SECONDS} s (1 hour); got ${JSON.stringify(expire)} = ${seconds} s`,
    );
  }
  return seconds;
}
