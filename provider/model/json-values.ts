/**
 * Plain JSON values as the engine passes them: copies without `undefined` (protobuf Struct
 * rejects it), picking set members, and structural equality.
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
export function pick<T extends object, K extends keyof T>(
  source: T,
  keys: readonly K[],
): Partial<Pick<T, K>> {
  const out: Partial<Pick<T, K>> = {};
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
