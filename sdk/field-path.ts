/**
 * How a field inside a body is named in messages, for the sdk's response errors and the
 * provider's check failures alike. Imports nothing: a program loads it with the declarations.
 * @module
 */

/** `["volume", "size_gb"]` → `volume.size_gb`; `[0, "id"]` → `[0].id`; `[]` → `""`. */
export function formatFieldPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out;
}

/** A response field's path in messages; the whole body is `(root)`. */
export function responseFieldPath(path: readonly PropertyKey[]): string {
  return formatFieldPath(path) || "(root)";
}
