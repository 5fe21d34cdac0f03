/**
 * Shared pieces of input validation: the preview placeholder for unknown values, and turning zod
 * issues into Pulumi check failures that name the property and the rule.
 * @module
 */
import type { z } from "zod";

/** What the engine sends for a value that is not known yet (during preview). */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** One rejected input, as Pulumi's `check` reports it. */
export interface ValidationFailure {
  /** Dotted path of the input (`compute.cpuKind`, `kernelArgs[0]`). */
  property: string;
  /** The rule that was broken, in words. */
  reason: string;
}

/** True when `value` is the preview placeholder for an unknown value. */
export function isUnknown(value: unknown): boolean {
  return value === UNKNOWN;
}

/** True when `value` is, or contains anywhere, an unknown value. */
export function containsUnknown(value: unknown): boolean {
  if (value === UNKNOWN) return true;
  if (Array.isArray(value)) return value.some(containsUnknown);
  if (value !== null && typeof value === "object") return Object.values(value).some(containsUnknown);
  return false;
}

/** True when the value is given: neither absent nor null. Unknown counts as given. */
export function isSet(value: unknown): boolean {
  return value !== undefined && value !== null;
}

/** Renders a zod issue path as `a.b[0].c`. */
export function propertyPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else out += out === "" ? String(part) : `.${String(part)}`;
  }
  return out;
}

/** Whether any value along `path` inside `inputs` is (or holds) an unknown value. */
function touchesUnknown(inputs: unknown, path: readonly PropertyKey[]): boolean {
  let current: unknown = inputs;
  for (const part of path) {
    if (current === UNKNOWN) return true;
    if (current === null || typeof current !== "object") return false;
    current = (current as Record<PropertyKey, unknown>)[part];
  }
  return containsUnknown(current);
}

/**
 * Validates `inputs` with `schema` and returns one failure per broken rule. Issues about values
 * that are unknown at preview are dropped: they are checked again once known.
 */
export function failuresOf(schema: z.ZodType, inputs: unknown): ValidationFailure[] {
  const result = schema.safeParse(inputs);
  if (result.success) return [];
  return result.error.issues
    .filter((issue) => !touchesUnknown(inputs, issue.path))
    .map((issue) => ({ property: propertyPath(issue.path), reason: issue.message }));
}

/** Describes a received value for a failure message, without ever echoing long strings. */
export function shown(value: unknown): string {
  if (typeof value === "string") return value.length > 40 ? "a long string" : JSON.stringify(value);
  if (value === undefined) return "nothing";
  if (typeof value === "object")
    return Array.isArray(value) ? "a list" : value === null ? "null" : "an object";
  return String(value);
}
