/**
 * The oldest Node.js the package runs on: undici 8's own floor (its response decoding needs
 * `zlib.createZstdDecompress`), and what to tell a user whose Node is older. Pure: importing it
 * checks nothing (./node-floor and ./node-floor-bin do).
 * @module
 */

/** The oldest supported Node.js version (package.json `engines` says the same). */
export const NODE_FLOOR = "22.19.0";

/** Whether `version` (as `process.versions.node`) is older than {@link NODE_FLOOR}. */
export function olderThanFloor(version: string): boolean {
  const have = version.split(".").map(Number);
  const need = NODE_FLOOR.split(".").map(Number);
  for (let i = 0; i < need.length; i++) {
    const a = have[i] ?? 0;
    const b = need[i] ?? 0;
    if (a !== b) return a < b;
  }
  return false;
}

/** What to tell the user when this Node is too old (one sentence pair, no stack), or undefined. */
export function nodeFloorProblem(
  version = process.versions.node,
  execPath = process.execPath,
): string | undefined {
  if (!olderThanFloor(version)) return undefined;
  return (
    `pulumi-platform needs Node.js ${NODE_FLOOR} or later; this is Node.js ${version} (${execPath}). ` +
    "Put a newer node first on PATH (Pulumi starts the node it finds there): `nvm install 22`, " +
    "your system's Node.js 22 package, or an installer from https://nodejs.org."
  );
}
