import { parseExpireSeconds, TASK_MAX_EXPIRE_SECONDS, type Task, type TaskExpire } from "../../sdk/schemas";
import { conflict, invalid, notFound } from "../errors";
import type { StoreContext, StorePart } from "../store/context";

export interface TaskRecord {
  name: string;
  started_at: number;
  expires_at: number;
}

export type InstanceStage = "running" | "warm" | "cold";

/**
 * Tasks of the local task API (spec 4.4, 3.5) and the instance pause stages they hold off
 * (spec 3.3). Expiry is evaluated lazily against the virtual clock.
 */
export class TaskRegistry implements StorePart<{ tasks: TaskRecord[] }> {
  readonly tasks = new Map<string, TaskRecord>();
  /** Last moment the instance was busy: boot, a task change, a wake, a release or expiry. */
  private busyAt: number;

  constructor(private readonly ctx: StoreContext) {
    this.busyAt = ctx.clock.now();
  }

  list(): Task[] {
    this.purge();
    return [...this.tasks.values()].map((t) => this.view(t));
  }

  get(name: string): Task {
    this.purge();
    const task = this.tasks.get(name);
    if (!task) throw notFound(`task "${name}" not found`);
    return this.view(task);
  }

  create(name: string, expire: TaskExpire): Task {
    const seconds = expireSeconds(expire);
    this.purge();
    if (this.tasks.has(name)) throw conflict(`task "${name}" already exists; use PUT to refresh it`);
    const now = this.touch();
    const task = { name, started_at: now, expires_at: now + seconds * 1000 };
    this.tasks.set(name, task);
    this.ctx.changed();
    return this.view(task);
  }

  /** Creates the task or moves its expiry forward from now (a heartbeat refresh). */
  upsert(name: string, expire: TaskExpire): Task {
    const seconds = expireSeconds(expire);
    this.purge();
    const now = this.touch();
    const task = this.tasks.get(name) ?? { name, started_at: now, expires_at: now };
    task.expires_at = now + seconds * 1000;
    this.tasks.set(name, task);
    this.ctx.changed();
    return this.view(task);
  }

  delete(name: string): void {
    this.purge();
    if (!this.tasks.delete(name)) throw notFound(`task "${name}" not found`);
    this.touch();
    this.ctx.changed();
  }

  /** An inbound request wakes a paused instance (spec 3.3). */
  wake(): void {
    this.touch();
  }

  instance(): { stage: InstanceStage; liveTasks: number; idleMs: number } {
    this.purge();
    if (this.tasks.size > 0) return { stage: "running", liveTasks: this.tasks.size, idleMs: 0 };
    const idle = this.ctx.clock.now() - this.busyAt;
    const { warmAfterMs, coldAfterMs } = this.ctx.timing;
    const stage: InstanceStage =
      idle < warmAfterMs ? "running" : idle < warmAfterMs + coldAfterMs ? "warm" : "cold";
    return { stage, liveTasks: 0, idleMs: Math.floor(idle) };
  }

  serialize() {
    return { tasks: [...this.tasks.values()] };
  }

  load(state: { tasks: TaskRecord[] }): void {
    this.tasks.clear();
    for (const t of state.tasks) this.tasks.set(t.name, { ...t });
    this.purge();
  }

  reset(): void {
    this.tasks.clear();
    this.touch();
  }

  private touch(): number {
    const now = this.ctx.clock.now();
    this.busyAt = Math.max(this.busyAt, now);
    return now;
  }

  private purge(): void {
    const now = this.ctx.clock.now();
    for (const task of this.tasks.values()) {
      if (task.expires_at <= now) {
        this.tasks.delete(task.name);
        // The instance became idle when the hold ran out, not when we noticed.
        this.busyAt = Math.max(this.busyAt, task.expires_at);
        this.ctx.changed();
      }
    }
  }

  private view(t: TaskRecord): Task {
    return {
      name: t.name,
      started_at: this.ctx.clock.iso(t.started_at),
      expires_at: this.ctx.clock.iso(t.expires_at),
    };
  }
}

function expireSeconds(expire: TaskExpire): number {
  const seconds = parseExpireSeconds(expire);
  if (seconds === undefined) {
    throw invalid(
      `expire ${JSON.stringify(expire)} is not valid: use whole seconds or a duration such as "30m" or "1h"`,
    );
  }
  if (seconds < 1) throw invalid(`expire must be at least 1 second, got ${JSON.stringify(expire)}`);
  if (seconds > TASK_MAX_EXPIRE_SECONDS) {
    throw invalid(
      `expire ${JSON.stringify(expire)} (${seconds}s) exceeds the maximum task lifetime of 1 hour; refresh the task before it expires instead`,
    );
  }
  return seconds;
}
