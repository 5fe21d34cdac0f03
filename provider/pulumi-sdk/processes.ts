/**
 * What the processes Pulumi starts are given, read without loading `@pulumi/pulumi` (the provider
 * plugin and the dynamic host's runtime use it; see ./switch for the fast paths, their probes and
 * the switch):
 *
 * - `dynamicHostArgs`: Pulumi's dynamic host (`@pulumi/pulumi/cmd/dynamic-provider`, which the
 *   CLI's `pulumi-resource-pulumi-nodejs` runs) has the engine's address as its first argument.
 *   Probe: that argument is an address. Public path: Pulumi's own rules for a provider's arguments
 *   ({@link pulumiProviderArgs}).
 * - `pluginArgs`: the CLI starts a provider plugin with its flags first and the engine's address
 *   last. Probe: the last argument that is not a flag is an address. Public path: Pulumi's rules.
 * - `hostLog`: in the dynamic host, `@pulumi/pulumi/log` loads alone (the package's index would load
 *   the whole Pulumi runtime, half a second) and its `warn` is `pulumi.log.warn`. Probe: the module
 *   loads and has `warn`. Public path: `require("@pulumi/pulumi").log`, which the host has loaded.
 * @module
 */
import { decidedLater, fastPathsOn, type SdkPath } from "./switch";

/** An engine's address as the CLI gives it: `host:port`. */
const ADDRESS = /^([\w.-]+):(\d+)$/;

export interface EngineAddress {
  host: string;
  port: number;
}

function asAddress(text: string | undefined): EngineAddress | undefined {
  const match = ADDRESS.exec(text ?? "");
  return match ? { host: match[1] as string, port: Number(match[2]) } : undefined;
}

/**
 * The engine's address by Pulumi's own rules for a provider's arguments (the SDK's provider
 * `main`, `parseArgs` in `@pulumi/pulumi/provider/internals`): `--logtostderr`, `-v=<n>` and
 * `--tracing <endpoint>` left out, the first argument left.
 */
export function pulumiProviderArgs(args: readonly string[]): string | undefined {
  const clean: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === "--logtostderr" || arg.startsWith("-v=")) continue;
    if (arg === "--tracing") {
      i += 1;
      continue;
    }
    clean.push(arg);
  }
  return clean[0];
}

/** The script of Pulumi's dynamic host, as `process.argv[1]` names it. */
const DYNAMIC_HOST = /[\\/]dynamic-provider([\\/]index\.js)?$/;

/**
 * Which path `dynamicHostArgs` takes for `argv` (a process's): the fast one in the dynamic host
 * when the switch leaves it on and its first argument is an address.
 */
export function dynamicHostArgsPath(argv: readonly string[] = process.argv): SdkPath {
  return fastPathsOn() && DYNAMIC_HOST.test(argv[1] ?? "") && asAddress(argv[2]) !== undefined
    ? "fast"
    : "public";
}

/** The engine's address when this process is Pulumi's dynamic host, else undefined. */
export function dynamicHostEngine(argv: readonly string[] = process.argv): EngineAddress | undefined {
  if (!DYNAMIC_HOST.test(argv[1] ?? "")) return undefined;
  return asAddress(dynamicHostArgsPath(argv) === "fast" ? argv[2] : pulumiProviderArgs(argv.slice(2)));
}

/** The last argument that is not a flag (the plugin's fast path). */
function lastPositional(args: readonly string[]): string | undefined {
  return args.filter((a) => !a.startsWith("-")).at(-1);
}

/**
 * Which path `pluginArgs` takes for the plugin's arguments: the fast one when the switch leaves it
 * on and the last argument that is not a flag is an address.
 */
export function pluginArgsPath(args: readonly string[] = process.argv.slice(2)): SdkPath {
  return fastPathsOn() && asAddress(lastPositional(args)) !== undefined ? "fast" : "public";
}

/**
 * The engine's address among the plugin's arguments: the last one that is not a flag (the CLI
 * puts its own flags, such as `--logtostderr` or `--tracing <endpoint>`, before it); by Pulumi's
 * own rules on the public path.
 */
export function pluginEngineAddress(args: readonly string[]): string | undefined {
  const picked = pluginArgsPath(args) === "fast" ? lastPositional(args) : pulumiProviderArgs(args);
  return picked !== undefined && ADDRESS.test(picked) ? picked : undefined;
}

type Warn = (message: string) => unknown;

const hostLogPath = decidedLater(async () => {
  const log = (await import("@pulumi/pulumi/log")) as { warn?: unknown };
  return typeof log.warn === "function";
});

/** Which path `hostLog` takes in this process (loads `@pulumi/pulumi/log` to probe it). */
export function hostLogPathOf(): Promise<SdkPath> {
  return hostLogPath();
}

/** `pulumi.log.warn` of the dynamic host, loaded at its first use. */
export async function hostWarn(message: string): Promise<void> {
  const warn: Warn =
    (await hostLogPath()) === "fast"
      ? (await import("@pulumi/pulumi/log")).warn
      : (require("@pulumi/pulumi") as typeof import("@pulumi/pulumi")).log.warn;
  await warn(message);
}
