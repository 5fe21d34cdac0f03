import { z } from "zod";

/** Timestamps are ISO 8601 style strings; the platform's exact format varies, so only the type is checked. */
export const Timestamp = z.string();

/** Error body of every failing remote call: `{ error: string }`. */
export const ErrorBodySchema = z.object({ error: z.string() });
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

/*
 * The one place where response members the platform may omit or send as null get their single
 * parsed form ("What the sdk accepts" in sdk/README.md). A parsed member is never `undefined`.
 */

/**
 * A response member the platform may omit or send as `null`: both parse to `null`; a value of
 * the wrong type is still rejected.
 */
export function orNull<T extends z.ZodType>(schema: T) {
  return schema.nullish().transform((value): z.output<T> | null => value ?? null);
}

/**
 * A response list the platform may omit or send as `null` (a Go nil slice marshals as `null`):
 * both parse to `[]`.
 */
export function listOrEmpty<T extends z.ZodType>(item: T) {
  return z
    .array(item)
    .nullish()
    .transform((value): z.output<T>[] => value ?? []);
}

/**
 * A response member whose "none" value the platform defines (`0` blocks, an empty `fstype`, a
 * count Go's `omitempty` drops when zero): omitted and `null` both parse to `none`.
 */
export function orNone<T extends z.ZodType>(schema: T, none: z.output<T>) {
  return schema.nullish().transform((value): z.output<T> => value ?? none);
}
