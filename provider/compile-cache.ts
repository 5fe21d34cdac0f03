/**
 * Turns on Node's on-disk compile cache (`module.enableCompileCache`, Node 22.1 and later) before
 * the rest of the package loads. Every Pulumi command starts a fresh program process and a fresh
 * provider host, and each compiled zod, undici and this package from source again: with the cache,
 * loading the provider runtime takes about two thirds of the time from the second command on.
 * The cache lives in Node's default directory (`NODE_COMPILE_CACHE`, else the system temp
 * directory); `NODE_DISABLE_COMPILE_CACHE=1` turns it off. Imported first, for its effect only.
 * @module
 */
import * as nodeModule from "node:module";

const cache = nodeModule as { enableCompileCache?: () => unknown; flushCompileCache?: () => void };
try {
  cache.enableCompileCache?.();
} catch {
  // A cache that cannot be written (read-only temp directory) only costs the speed-up.
}

/**
 * Where the plugin's bin (plugin/bundle-load) leaves the saving of its bundle's code cache. A global
 * symbol: the bundle holds a copy of this module of its own, which must find it too.
 */
export const SAVE_CODE_CACHE = Symbol.for("pulumi-platform.plugin.saveCodeCache");

/**
 * Writes what was compiled so far to the cache. Node writes it only at a clean exit, and the
 * engine ends a provider plugin with SIGINT or SIGKILL, so without this the cache stays empty.
 * Called by the plugin at each `stage` of a command: once it serves (`serving`), once its runtime
 * has loaded (`runtime`), and when a resource method first answered (its name); a no-op without
 * the cache.
 */
export function saveCompileCache(stage: string): void {
  try {
    cache.flushCompileCache?.();
  } catch {
    // Only the speed-up of the next start is lost.
  }
  // The plugin's bundle keeps a code cache of its own (plugin/bundle-load), saved at the same stages.
  const saveCodeCache = (globalThis as Record<symbol, unknown>)[SAVE_CODE_CACHE];
  if (typeof saveCodeCache === "function") saveCodeCache(stage);
}
