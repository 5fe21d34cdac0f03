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

const enable = (nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache;
try {
  enable?.();
} catch {
  // A cache that cannot be written (read-only temp directory) only costs the speed-up.
}
