/**
 * Shared pieces of input validation: the preview placeholder for unknown values, and turning zod
 * issues into Pulumi check failures that name the property and the rule.
 * @module
 */
import type { z } from "zod";
import { formatFieldPath } from "../../../sdk/field-path";

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

/** Renders a zod issue path as `a.b[0].c` (the sdk's field-path rule). */
export const propertyPath = formatFieldPath;

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

/**
 * Members the engine and the SDK add to every dynamic resource's inputs: the serialized provider
 * (`__provider`) and any other `__`-prefixed member Pulumi reserves. Never a user's typo.
 */
export function isInternalProperty(name: string): boolean {
  return name.startsWith("__");
}

/**
 * The property names a resource takes, with the names of nested objects' members
 * (`{ compute: ["cpuKind", ...] }`) so a typo inside them is found too.
 */
export interface KnownProperties {
  /** Top-level input names. */
  names: readonly string[];
  /** Members of inputs that are objects with fixed member names. */
  nested?: Readonly<Record<string, readonly string[]>>;
}

/** Input names whose values are secrets: a check failure must never name them (see below). */
const SECRET_NAME = /private.?key|passw(or)?d|secret|token|credential/i;

/** Whether an input name looks like it holds a secret (privateKey, password, apiToken, ...). */
export function isSecretPropertyName(name: string): boolean {
  return SECRET_NAME.test(name);
}

/**
 * The known name closest to `name`: the same name in another case first, then the name within a
 * small edit distance (a third of the name's length, at least 1). Undefined when nothing is close.
 */
export function nearestName(name: string, known: readonly string[]): string | undefined {
  const lower = name.toLowerCase();
  const sameLetters = known.find((k) => k.toLowerCase() === lower);
  if (sameLetters) return sameLetters;
  const limit = Math.max(1, Math.floor(name.length / 3));
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const candidate of known) {
    const distance = editDistance(lower, candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** Edit distance counting insertions, deletions, substitutions and swaps of neighbours as one. */
function editDistance(a: string, b: string): number {
  // Three rolling rows: two back (for swaps), previous and current.
  let twoBack: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, (twoBack[j - 2] ?? 0) + 1);
      }
      current.push(best);
    }
    twoBack = previous;
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/**
 * One failure per input the resource does not take (`sizeGB`, `hostName`, `compute.cpuKinds`):
 * Pulumi would otherwise drop it silently. The reason names the nearest known name when one is
 * close ("did you mean sizeGb?"), else lists the names the resource takes. `resource` names the
 * resource in the reason (e.g. "Volume").
 */
export function unknownPropertyFailures(
  resource: string,
  news: Record<string, unknown>,
  known: KnownProperties,
): ValidationFailure[] {
  const failures = unknownIn(resource, news, known.names, "");
  for (const [name, members] of Object.entries(known.nested ?? {})) {
    const value = news[name];
    if (value !== null && typeof value === "object" && !Array.isArray(value)) {
      failures.push(
        ...unknownIn(`${resource} ${name}`, value as Record<string, unknown>, members, `${name}.`),
      );
    }
  }
  return failures;
}

function unknownIn(
  what: string,
  values: Record<string, unknown>,
  names: readonly string[],
  prefix: string,
): ValidationFailure[] {
  const failures: ValidationFailure[] = [];
  for (const name of Object.keys(values)) {
    if (names.includes(name) || (prefix === "" && isInternalProperty(name))) continue;
    if (values[name] === undefined) continue;
    const suggestion = nearestName(name, names);
    const hint = suggestion
      ? `did you mean ${prefix}${suggestion}?`
      : `${what} takes ${names.map((n) => `${prefix}${n}`).join(", ")}`;
    const path = `${prefix}${name}`;
    // A mistyped privateKey still holds the key: never let the engine print it.
    const secret =
      isSecretPropertyName(name) || (suggestion !== undefined && isSecretPropertyName(suggestion));
    failures.push({ property: secret ? "" : path, reason: `unknown property ${path}: ${hint}` });
  }
  return failures;
}

/**
 * The engine prints the value of the property a check failure names, secret or not
 * (pulumi/pulumi#19465). A failure about a secret input (one of `secretNames`, or any name that
 * looks secret) therefore names no property (the engine then prints only the reason); the reason
 * already names the input.
 */
export function withoutSecretProperties(
  failures: ValidationFailure[],
  secretNames: readonly string[] = [],
): ValidationFailure[] {
  return failures.map((f) => {
    const top = f.property.split(/[.[]/)[0] ?? "";
    return secretNames.includes(top) || isSecretPropertyName(f.property)
      ? { property: "", reason: f.reason }
      : f;
  });
}

/** Describes a received value for a failure message, without ever echoing long strings. */
export function shown(value: unknown): string {
  if (typeof value === "string") return value.length > 40 ? "a long string" : JSON.stringify(value);
  if (value === undefined) return "nothing";
  if (typeof value === "object")
    return Array.isArray(value) ? "a list" : value === null ? "null" : "an object";
  return String(value);
}
