/**
 * The platform's region codes: the one list the provider's preview check and the emulator share.
 * The spec names no regions; the platform's are public. Source: Fly.io's region reference,
 * https://fly.io/docs/reference/regions/ (superfly/docs `reference/regions.html.markerb`, as of
 * commit 1d7355d of 2025-10-28). Imports nothing: a Pulumi program loads it (for the Volume's
 * check) and must not load the sdk's clients.
 * @module
 */

/** The regions a volume can be placed in today (the reference's table). */
export const PLATFORM_REGIONS = [
  "ams",
  "arn",
  "bom",
  "cdg",
  "dfw",
  "ewr",
  "fra",
  "gru",
  "iad",
  "jnb",
  "lax",
  "lhr",
  "nrt",
  "ord",
  "sin",
  "sjc",
  "syd",
  "yyz",
] as const;

/**
 * Regions the reference listed until October 2025 and then removed as deprecated (superfly/docs
 * #2270). Volumes made before may still live there and be reported there, so they stay known:
 * a stack holding such a volume keeps previewing.
 */
export const RETIRED_REGIONS = [
  "atl",
  "bog",
  "bos",
  "den",
  "eze",
  "gdl",
  "gig",
  "hkg",
  "mad",
  "mia",
  "otp",
  "phx",
  "qro",
  "scl",
  "sea",
  "waw",
  "yul",
] as const;

/** A region code's shape: three lowercase letters (`iad`). */
export const REGION_CODE = /^[a-z]{3}$/;

const KNOWN: ReadonlySet<string> = new Set<string>([...PLATFORM_REGIONS, ...RETIRED_REGIONS]);
const RETIRED: ReadonlySet<string> = new Set<string>(RETIRED_REGIONS);

/** Whether `code` is a region of the list, current or retired. */
export function isKnownRegion(code: string): boolean {
  return KNOWN.has(code);
}

/** Whether `code` is a region the reference no longer lists. */
export function isRetiredRegion(code: string): boolean {
  return RETIRED.has(code);
}
