/**
 * Helpers that keep what leaves the provider serializable: no `undefined` anywhere (protobuf
 * Struct rejects it), and errors that carry the resource id when something was created.
 * @module
 */

/** A deep copy of `value` without `undefined` entries (arrays keep their length with null). */
export function clean<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v) => (v === undefined ? null : clean(v))) as T;
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = clean(v);
    return out as T;
  }
  return value;
}

/** The entries of `source` named in `keys` that are set (not undefined or null). */
export function pick(source: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of keys) {
    const value = source[key];
    if (value !== undefined && value !== null) out[key] = value;
  }
  return out;
}

/** Structural equality for plain JSON values (order of object keys ignored). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => sameValue(v, b[i]))
    );
  }
  if (a && b && typeof a === "object" && typeof b === "object") {
    const ak = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
    const bk = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
    return (
      ak.length === bk.length &&
      ak.every((k) => sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
    );
  }
  return false;
}

/**
 * An error that tells the engine the resource WAS created but is not ready (a wait timed out).
 * The engine records it with `id` and `properties`, so it is not leaked and the next `up`
 * retries; `properties` must include `__provider` so later operations can run.
 */
export class ResourceInitError extends Error {
  readonly id: string;
  readonly properties: Record<string, unknown>;
  readonly reasons: string[];
  constructor(id: string, properties: Record<string, unknown>, message: string) {
    super(message);
    this.id = id;
    this.properties = clean(properties);
    this.reasons = [message];
  }
}

/** The serialized provider of a resource's inputs, to carry into a {@link ResourceInitError}. */
export function providerOf(inputs: Record<string, unknown>): Record<string, unknown> {
  return inputs.__provider === undefined ? {} : { __provider: inputs.__provider };
}
