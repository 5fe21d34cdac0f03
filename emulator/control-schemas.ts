import { z } from "zod";
import { FaultSpecSchema } from "./faults";
import { DnsRecordSchema } from "./store/dns";

/** Request bodies of the control API, shared by its routes and `createControlClient`. */

export { FaultSpecSchema };
export const DnsBodySchema = z.object({ records: z.array(DnsRecordSchema) });
export const ClusterStateSchema = z.object({ state: z.enum(["ready", "deleting", "deleted"]) });
export const AdminSchema = z.object({
  available: z.boolean(),
  retryAfterSeconds: z.number().int().nonnegative().optional(),
});
export const LoginSchema = z.object({ username: z.string().min(1), password: z.string() });
export const AttachSchema = z.object({ machine_id: z.string().min(1) });
export const AdvanceSchema = z.object({ ms: z.number().nonnegative() });
export const SpeedSchema = z.object({ factor: z.number().nonnegative().max(1_000_000) });
export const TxSchema = z.object({
  db: z.string().min(1),
  count: z.number().int().min(1).max(100_000).optional(),
  pageSize: z
    .number()
    .int()
    .refine((n) => n >= 512 && n <= 65536 && (n & (n - 1)) === 0, "must be a power of two from 512 to 65536")
    .optional(),
  pages: z.number().int().nonnegative().optional(),
});
export const FailoverSchema = z.object({ primary: z.string().min(1) });
export const RateLimitSchema = z.object({ perSecond: z.number().positive().max(1_000_000).nullable() });

export type ClusterStateBody = z.infer<typeof ClusterStateSchema>;
export type AdminBody = z.infer<typeof AdminSchema>;
export type LoginBody = z.infer<typeof LoginSchema>;
export type TxBody = z.infer<typeof TxSchema>;
export type RateLimitBody = z.infer<typeof RateLimitSchema>;

/** Answers whose shape callers rely on, checked by the client. */
export const LoginAnswerSchema = z.object({ ok: z.boolean() });
export const TimeViewSchema = z.object({ now: z.string(), nowMs: z.number(), factor: z.number() });
export const RateLimitViewSchema = z.object({ perSecond: z.number().nullable() });
export const InstanceViewSchema = z.object({
  stage: z.enum(["running", "warm", "cold"]),
  liveTasks: z.number(),
  idleMs: z.number(),
});
export type TimeView = z.infer<typeof TimeViewSchema>;
export type RateLimitView = z.infer<typeof RateLimitViewSchema>;
export type InstanceView = z.infer<typeof InstanceViewSchema>;
