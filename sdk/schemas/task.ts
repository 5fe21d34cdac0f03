import { z } from "zod";
import { listOrEmpty, Timestamp } from "./common";

export const TaskSchema = z.object({
  name: z.string(),
  started_at: Timestamp,
  expires_at: Timestamp,
});
export type Task = z.infer<typeof TaskSchema>;

/** The task list; `tasks` may be null or omitted when there are none (parsed: `[]`). */
export const TaskListSchema = z.object({ tasks: listOrEmpty(TaskSchema) });
export type TaskList = z.infer<typeof TaskListSchema>;
/** The task list as it may come over the wire. */
export type TaskListWire = z.input<typeof TaskListSchema>;

/** Maximum lifetime of one task (spec 4.4, 8). */
export const TASK_MAX_EXPIRE_SECONDS = 3600;

/** `expire`: whole seconds, or a duration string such as `30m`, `1h`, `90s`. */
export const TaskExpireSchema = z.union([z.number().int(), z.string().min(1)]);
export type TaskExpire = z.infer<typeof TaskExpireSchema>;

export const CreateTaskRequestSchema = z.object({ name: z.string().min(1), expire: TaskExpireSchema });
export type CreateTaskRequest = z.infer<typeof CreateTaskRequestSchema>;

export const UpsertTaskRequestSchema = z.object({ expire: TaskExpireSchema });
export type UpsertTaskRequest = z.infer<typeof UpsertTaskRequestSchema>;

const DURATION_UNITS: Record<string, number> = { s: 1, m: 60, h: 3600 };

/**
 * Parses `expire` into whole seconds: an integer, a digit string, or one or more
 * `<number><s|m|h>` parts (`1h`, `30m`, `1m30s`). Returns undefined when it cannot be parsed.
 */
export function parseExpireSeconds(expire: TaskExpire): number | undefined {
  if (typeof expire === "number") return Number.isInteger(expire) ? expire : undefined;
  const text = expire.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const parts = [...text.matchAll(/(\d+)([smh])/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join("") !== text) return undefined;
  return parts.reduce((sum, p) => sum + Number(p[1]) * (DURATION_UNITS[p[2] as string] ?? 0), 0);
}
