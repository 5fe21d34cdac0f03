/**
 * Ids and secrets made up the way the platform makes them (spec 2: `vol_…`, `vs_…`, stable
 * values derived from names), for the emulator and the testing mocks alike.
 * @module
 */
import { createHash, randomBytes } from "node:crypto";

/** A random identifier such as `vol_8f3k2m1x9q0z7w4r`. */
export function randomId(prefix: string, length = 16): string {
  const alphabet = "0123456789abcdefghijklmnopqrstuvwxyz";
  const bytes = randomBytes(length);
  let out = "";
  for (const b of bytes) out += alphabet[b % alphabet.length];
  return `${prefix}${out}`;
}

/** Stable hex digest of the given parts, for fake but deterministic values (IPs, zones, TXT values). */
export function stableHex(length: number, ...parts: string[]): string {
  return createHash("sha256").update(parts.join("\u0000")).digest("hex").slice(0, length);
}

/** A strong password: 32 characters of base64url from 24 random bytes. */
export function strongPassword(): string {
  return randomBytes(24).toString("base64url");
}
