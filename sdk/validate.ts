/**
 * Up-front checks of request bodies against their wire schemas, so a bad argument fails before
 * anything is sent, with a message naming the field.
 * @module
 */
import type { z } from "zod";
import { InvalidArgumentError } from "./errors";
import { formatFieldPath } from "./field-path";

/** Throws InvalidArgumentError naming `<name>.<field>` when `value` does not match `schema`. */
export function checkArgument(schema: z.ZodType, value: unknown, name: string): void {
  const result = schema.safeParse(value);
  if (result.success) return;
  const issue = result.error.issues[0];
  const field = issue && issue.path.length > 0 ? `${name}.${formatFieldPath(issue.path)}` : name;
  throw new InvalidArgumentError(`${field}: ${issue?.message ?? "invalid"}`);
}
