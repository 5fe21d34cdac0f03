/**
 * The installed package's version. `pulumi about` cannot show a dynamic provider's version, so
 * every provider error names it, for bug reports.
 * @module
 */
import fs from "node:fs";
import path from "node:path";

function readVersion(): string {
  // dist/provider/runtime → the package root (and provider/runtime when run from sources); "." is
  // the plugin archive, whose one-file plugin has its package.json beside it (scripts/plugin-archive.js).
  for (const up of ["../../..", "../..", "."]) {
    try {
      const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, up, "package.json"), "utf8"));
      if (pkg.name === "pulumi-platform" && typeof pkg.version === "string") return pkg.version;
    } catch {
      // Not here; try the next candidate.
    }
  }
  return "unknown";
}

/** Version of the pulumi-platform package this runtime belongs to. */
export const PACKAGE_VERSION = readVersion();

/** `err` with the package version at the end of its message (once); other properties kept. */
export function withVersion(err: unknown): unknown {
  if (!(err instanceof Error)) return err;
  const tag = ` [pulumi-platform ${PACKAGE_VERSION}]`;
  if (!err.message.endsWith(tag)) err.message += tag;
  // A ResourceInitError's reasons are what the engine shows for a resource kept in the stack.
  const init = err as Error & { reasons?: unknown };
  if (Array.isArray(init.reasons)) {
    init.reasons = init.reasons.map((r) => (typeof r === "string" && !r.endsWith(tag) ? `${r}${tag}` : r));
  }
  return err;
}
