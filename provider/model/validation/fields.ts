/**
 * Field builders whose error messages name the property and the rule, so every check failure
 * reads "<property> must ... (got ...)".
 * @module
 */
import { z } from "zod";
import { shown } from "./common";

/** A required, non-empty string; `about` says what it is. */
export function requiredString(property: string, about: string) {
  return z
    .string({
      error: (iss) =>
        iss.input === undefined
          ? `${property} is required: ${about}`
          : `${property} must be a string: ${about} (got ${shown(iss.input)})`,
    })
    .min(1, { error: `${property} must not be empty: ${about}` });
}

/**
 * A required, non-empty string holding a secret: messages say what kind of value was received
 * (a number, an object), never the value.
 */
export function requiredSecretString(property: string, about: string) {
  return z
    .string({
      error: (iss) =>
        iss.input === undefined
          ? `${property} is required: ${about}`
          : `${property} must be a string: ${about} (got ${kindOf(iss.input)})`,
    })
    .min(1, { error: `${property} must not be empty: ${about}` });
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  const type = typeof value;
  return type === "object" ? "an object" : `a ${type}`;
}

/** An optional, non-empty string. */
export function optionalString(property: string, about: string) {
  return z
    .string({ error: (iss) => `${property} must be a string: ${about} (got ${shown(iss.input)})` })
    .min(1, { error: `${property} must not be empty when given: ${about}` })
    .optional();
}

/** An optional boolean. */
export function optionalBoolean(property: string) {
  return z
    .boolean({ error: (iss) => `${property} must be true or false (got ${shown(iss.input)})` })
    .optional();
}

/** An optional whole number from `min` to `max` inclusive; `unit` is appended to the range. */
export function optionalInteger(property: string, min: number, max: number, unit: string) {
  const rule = `${property} must be a whole number from ${min} to ${max}${unit ? ` ${unit}` : ""}`;
  return z
    .number({ error: (iss) => `${rule} (got ${shown(iss.input)})` })
    .int({ error: (iss) => `${rule} (got ${shown(iss.input)})` })
    .min(min, { error: (iss) => `${rule} (got ${shown(iss.input)})` })
    .max(max, { error: (iss) => `${rule} (got ${shown(iss.input)})` })
    .optional();
}

/** An optional map of string to string (`triggers`). */
export function optionalStringMap(property: string) {
  return z
    .record(
      z.string(),
      z.string({ error: (iss) => `${property} values must be strings (got ${shown(iss.input)})` }),
      {
        error: (iss) => `${property} must be a map of strings to strings (got ${shown(iss.input)})`,
      },
    )
    .optional();
}

/** Upper bound of every wait, one day. */
export const MAX_WAIT_SECONDS = 86_400;

/** An optional wait limit in seconds, from 1 s to a day. */
export function optionalWaitSeconds(property: string) {
  return optionalInteger(property, 1, MAX_WAIT_SECONDS, "seconds");
}
