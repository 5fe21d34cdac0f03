/**
 * Whether the plugin's one-file build can stand in for the modules beside it. scripts/build-plugin.js
 * writes `bundle.js` and, beside it, `bundle.json`: the Node major it was built for and each
 * compiled module it holds (path from the bundle's directory, size). The bundle is used only when
 * every one of them is still there, as large, and not newer than the bundle (a `tsc` run since
 * then rebuilt them): a stale or partial bundle is never run in place of newer code.
 * @module
 */
import fs from "node:fs";
import path from "node:path";

/** What scripts/build-plugin.js records beside the bundle. */
export interface BundleManifest {
  /** `process.versions.modules` of the Node that built it (its ABI; informational). */
  node: string;
  /** The bundle's file name, beside the manifest. */
  bundle: string;
  /** Each compiled module the bundle holds: its path relative to the bundle's directory, its size. */
  inputs: [file: string, size: number][];
}

export const MANIFEST = "bundle.json";

/** The bundle's path when it may be run instead of the modules in `dir`; undefined otherwise. */
export function usableBundle(dir: string): string | undefined {
  if (process.env.PULUMI_PLATFORM_PLUGIN_BUNDLE === "0") return undefined;
  try {
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, MANIFEST), "utf8")) as BundleManifest;
    const bundle = path.join(dir, manifest.bundle);
    const built = fs.statSync(bundle).mtimeMs;
    for (const [file, size] of manifest.inputs) {
      const stat = fs.statSync(path.join(dir, file), { throwIfNoEntry: false });
      if (!stat || stat.size !== size || stat.mtimeMs > built) return undefined;
    }
    return bundle;
  } catch {
    return undefined;
  }
}
