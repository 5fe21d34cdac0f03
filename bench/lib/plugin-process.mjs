// What the plugin benches share: the protocol's modules (the protos' own grpc-js and
// google-protobuf, as the plugin uses them), the plugin's bin, the native control the engine bench
// built, and a process's CPU read from /proc.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { homedir } from "node:os";
import { join } from "node:path";

const root = join(import.meta.dirname, "..", "..");
const require = createRequire(import.meta.url);

/** Requires a module as `@pulumi/pulumi` resolves it (grpc-js, google-protobuf, its protos). */
export const fromPulumi = createRequire(require.resolve("@pulumi/pulumi/package.json"));

/** The plugin's bin in dist/; exits with advice when dist/ has not been built. */
export function pluginBin() {
  const bin = join(root, "dist", "provider", "plugin", "main.js");
  if (!existsSync(bin)) {
    console.error("dist/ is missing: run `npx tsc -p tsconfig.json` first");
    process.exit(2);
  }
  return bin;
}

/** The binary `given`, else the newest native control the engine bench built (undefined if none). */
export function nativeControl(given) {
  if (given) return given;
  const cache =
    process.env.PULUMI_PLATFORM_CACHE ??
    join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "pulumi-platform");
  return (existsSync(cache) ? readdirSync(cache) : [])
    .filter((d) => d.startsWith("bench-native-"))
    .map((d) => join(cache, d, "pulumi-resource-platformnative"))
    .filter((f) => existsSync(f))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
}

/** CPU ms the process `pid` has used so far, all its threads (Linux; NaN elsewhere). */
export function cpuMs(pid) {
  try {
    const dir = `/proc/${pid}/task`;
    let ns = 0;
    for (const task of readdirSync(dir))
      ns += Number(readFileSync(`${dir}/${task}/schedstat`, "utf8").split(" ")[0]);
    return ns / 1e6;
  } catch {
    return Number.NaN;
  }
}
