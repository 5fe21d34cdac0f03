/**
 * The oldest Node.js the package runs on: undici 8's own floor (its response decoding needs
 * `zlib.createZstdDecompress`). The modules that load undici import this first, so an older Node
 * fails with a sentence that says what to do instead of "Cannot read properties of undefined
 * (reading 'bind')" from inside undici.
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

/** What to tell the user when this Node is too old, or undefined. */
export function nodeFloorProblem(
  version = process.versions.node,
  execPath = process.execPath,
): string | undefined {
  if (!olderThanFloor(version)) return undefined;
  return `pulumi-platform needs Node.js ${NODE_FLOOR} or later; this is Node.js ${version} (${execPath}). Put a newer node first on PATH (Pulumi starts the node it finds there).`;
}

const problem = nodeFloorProblem();
if (problem) throw new Error(problem);
