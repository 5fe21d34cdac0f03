/**
 * Runs the plugin's one-file build with a V8 code cache of its own. Node's compile cache keeps only
 * what V8 compiles before a module runs (the bundle's top level, about 150 KB); every function the
 * start then calls is compiled again at each start. Here the cache is taken from the script after
 * it ran (`createCachedData`), at the stages ../compile-cache names (the plugin serves, its runtime
 * has loaded, each resource method answered for the first time), so the next start finds those
 * functions compiled: about a third less CPU to load the bundle (`npm run bench -- plugin-start`).
 *
 * The cache lives in Node's compile-cache directory (`module.getCompileCacheDir()`: where
 * `NODE_COMPILE_CACHE` points, else the system temp directory), in `pulumi-platform-plugin/`, one
 * file per bundle (its path, size and time, this Node and architecture) and beside it the stages
 * it covers. It is written, as a new file renamed into place, only at a stage it did not cover (or
 * when it was missing or V8 refused it); without a compile-cache directory
 * (`NODE_DISABLE_COMPILE_CACHE=1`, a Node without one) nothing is kept. The code run is the
 * bundle's either way (scripts/build-plugin.js refuses a bundle with an `import()`, which a script
 * run this way could not load).
 * @module
 */
import fs from "node:fs";
import nodeModule, { createRequire } from "node:module";
import path from "node:path";
import vm from "node:vm";
import { SAVE_CODE_CACHE } from "../compile-cache";

const CACHE_SUBDIR = "pulumi-platform-plugin";

/** FNV-1a of `text`, as 8 hex digits: a short name for the bundle's path. */
function shortHash(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(16).padStart(8, "0");
}

/** Where the code cache of a bundle lives: its directory, the name prefix of that bundle's path, its name. */
interface CacheFile {
  dir: string;
  prefix: string;
  name: string;
}

/** The code cache's file for the bundle `file`; undefined without a compile-cache directory. */
function cacheFileOf(file: string, stat: fs.Stats): CacheFile | undefined {
  const compileCacheDir = (
    nodeModule as { getCompileCacheDir?: () => string | undefined }
  ).getCompileCacheDir?.();
  if (!compileCacheDir) return undefined;
  const prefix = `${shortHash(file)}-`;
  // The build itself in full (no hash of it): a cache must never be taken for another build.
  const build = `${stat.size}-${Math.trunc(stat.mtimeMs)}-${process.version}-${process.arch}`;
  return { dir: path.join(compileCacheDir, CACHE_SUBDIR), prefix, name: `${prefix}${build}` };
}

/** `data` as `file` in `dir`, through a new file renamed into place. */
function writeAtomically(dir: string, file: string, data: string | Buffer): void {
  const temp = path.join(dir, `.${file}.${process.pid}`);
  fs.writeFileSync(temp, data, { mode: 0o600 });
  fs.renameSync(temp, path.join(dir, file));
}

/**
 * Writes the cache `data` and the stages it covers (`<name>.json`), and removes the caches of
 * earlier builds of the same bundle and what a killed writer left.
 */
function writeCache(cache: CacheFile, data: Buffer, covers: Iterable<string>): void {
  try {
    fs.mkdirSync(cache.dir, { recursive: true, mode: 0o700 });
    writeAtomically(cache.dir, cache.name, data);
    writeAtomically(cache.dir, `${cache.name}.json`, JSON.stringify({ covers: [...covers] }));
    const ours = new Set([cache.name, `${cache.name}.json`]);
    for (const other of fs.readdirSync(cache.dir)) {
      const ofThisBundle = other.startsWith(cache.prefix) || other.startsWith(`.${cache.prefix}`);
      if (ofThisBundle && !ours.has(other)) fs.rmSync(path.join(cache.dir, other), { force: true });
    }
  } catch {
    // Only the speed-up of the next start is lost.
  }
}

/** The cache of `cache` and the stages it covers, if there is one. */
function readCache(cache: CacheFile): { data: Buffer; covers: Set<string> } | undefined {
  try {
    const data = fs.readFileSync(path.join(cache.dir, cache.name));
    let covers: unknown;
    try {
      covers = JSON.parse(fs.readFileSync(path.join(cache.dir, `${cache.name}.json`), "utf8")).covers;
    } catch {
      // A cache without its list (a writer killed between the two files) covers what it holds.
    }
    return { data, covers: new Set(Array.isArray(covers) ? covers.map(String) : []) };
  } catch {
    return undefined;
  }
}

/**
 * Runs the bundle `file` as a CommonJS module and returns its exports. The code cache is saved at
 * each stage ../compile-cache names (`serving`, `runtime`, each resource method's first answer)
 * that the cache read at the start did not cover, so a first `preview` and a later `refresh` each
 * add what they compiled, and once every stage is covered nothing is written.
 */
export function runBundle(file: string): unknown {
  const stat = fs.statSync(file);
  const cache = cacheFileOf(file, stat);
  const found = cache ? readCache(cache) : undefined;
  const script = new vm.Script(nodeModule.wrap(fs.readFileSync(file, "utf8")), {
    filename: file,
    ...(found ? { cachedData: found.data } : {}),
  });
  const module = { exports: {} as unknown };
  const run = script.runInThisContext() as (
    exports: unknown,
    require: NodeJS.Require,
    module: { exports: unknown },
    filename: string,
    dirname: string,
  ) => void;
  run(module.exports, createRequire(file), module, file, path.dirname(file));
  // Only for a bundle that loaded (one that threw leaves the bin to the modules, and no cache).
  if (cache) {
    const covers = found && !script.cachedDataRejected ? found.covers : new Set<string>();
    (globalThis as Record<symbol, unknown>)[SAVE_CODE_CACHE] = (stage: string) => {
      if (covers.has(stage)) return;
      covers.add(stage);
      writeCache(cache, script.createCachedData(), covers);
    };
  }
  return module.exports;
}
