import { z } from "zod";

/** Timestamps are ISO 8601 style strings; the platform's exact format varies, so only the type is checked. */
export const Timestamp = z.string();

/** Error body of every failing remote call: `{ error: string }`. */
export const ErrorBodySchema = z.object({ error: z.string() });
export type ErrorBody = z.infer<typeof ErrorBodySchema>;
