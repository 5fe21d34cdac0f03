/**
 * The one place request paths are built. Every path parameter is percent-encoded, including `*`
 * (which `encodeURIComponent` leaves alone) so wildcard hostnames travel as `%2A` (spec 4.2 rule 1).
 * @module
 */
import { InvalidArgumentError } from "./errors";

/** Percent-encodes one path segment; `*` becomes `%2A`, and `.`/`..` cannot climb the path. */
export function encodePathSegment(value: string): string {
  if (value === "." || value === "..") return value.replace(/\./g, "%2E");
  const encoded = encodeURIComponent(value);
  return encoded.includes("*") ? encoded.replace(/\*/g, "%2A") : encoded;
}

// Argument names as the clients call them, keyed by the collection segment before them.
const PARAM_NAMES: Record<string, string> = {
  apps: "app",
  volumes: "volumeId",
  certificates: "hostname",
  postgres: "clusterId",
  users: "username",
  tasks: "name",
};

/**
 * Tagged template for API paths: `` apiPath`/v1/apps/${app}/volumes/${id}` ``. Each
 * interpolated value must be a non-empty string and is encoded with {@link encodePathSegment}.
 */
export function apiPath(strings: TemplateStringsArray, ...params: string[]): string {
  let out = strings[0] as string;
  for (let i = 0; i < params.length; i++) {
    const value = params[i];
    if (typeof value !== "string" || value.length === 0) {
      const collection = /(\w+)\/$/.exec(out)?.[1] ?? "";
      const name = PARAM_NAMES[collection] ?? `path parameter ${i + 1}`;
      throw new InvalidArgumentError(
        `${name} must be a non-empty string (got ${value === "" ? "an empty string" : typeof value})`,
      );
    }
    out += encodePathSegment(value) + (strings[i + 1] as string);
  }
  return out;
}

/** Builds `?a=1&b=x` from the defined entries (encoded like path segments), or "" when none. */
export function queryString(params: Record<string, string | number | undefined>): string {
  let out = "";
  for (const key of Object.keys(params)) {
    const value = params[key];
    if (value === undefined) continue;
    out += `${out ? "&" : "?"}${encodePathSegment(key)}=${encodePathSegment(String(value))}`;
  }
  return out;
}
