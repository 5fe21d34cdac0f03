/**
 * The adapter between this package and the internals of `@pulumi/pulumi`: every place the package
 * leans on something of the SDK that is not its public API (a private member, a file inside its
 * directory, the shape of a trace it takes, the arguments of a process it starts), in one folder,
 * each with three parts side by side:
 *
 * - the **fast path**, which uses the internal (what the package did before, and does by default);
 * - a **probe**, a cheap check at run time that the installed `@pulumi/pulumi` still behaves as the
 *   fast path assumes (run once per process, never throwing: a probe that throws has failed);
 * - the **public path**, used when the probe fails or the switch below is off: slower or coarser,
 *   but resting only on the SDK's public API (or on nothing of it).
 *
 * The assumptions, by module (each module's notes say more):
 *
 * | Assumption | Fast path | Probe | Public path |
 * |---|---|---|---|
 * | `resourceCallMessages` (./messages, the plugin) | provider.proto's requests and answers read and written by field number | the generated classes' bytes of a sample of each read the same, and the fast answers' bytes read back the same | the generated classes of `@pulumi/pulumi/proto` |
 * | `stackTraceLimit` (./program) | traces capped while a resource registers | `Resource.callsites` still gives frames with the limit at 0 | no cap |
 * | `registrationFrames` (./program) | Pulumi's 5 dropped frames kept, then only the program's | `Resource.stackTrace(1)` starts at its caller and the constructor asks `stackTrace(4)` | every leading frame that is not the program's kept, then only the program's |
 * | `outputKnown` (./program) | `Output.isKnown`, a private promise | a known and an unknown output answer true and false | known when its `apply` runs before the resource's URN's and a turn of the event loop after it |
 * | `mockMonitor` (./program) | the monitor has `mocks` under `setMocks` | `MockMonitor` instances have it | the engine's monitor is a gRPC client (`getChannel`) |
 * | `dynamicHostArgs` (./processes, the runtime) | the engine's address is the dynamic host's first argument | that argument is an address | Pulumi's own rules for a provider's arguments |
 * | `pluginArgs` (./processes, the plugin) | the engine's address is the last argument that is not a flag | that argument is an address | Pulumi's own rules for a provider's arguments |
 * | `hostLog` (./processes, the runtime) | `@pulumi/pulumi/log` loaded alone in the dynamic host | it has `warn` | `require("@pulumi/pulumi").log` |
 *
 * The switch: `PULUMI_PLATFORM_SDK_FAST_PATHS=off` in the environment of the program, the plugin
 * and the dynamic host (the CLI passes its own on) turns every fast path off, to tell a fault of
 * an internal apart from one of the package (docs/troubleshooting.md). Nothing a user sees
 * changes with it, except that the program's source positions may point at this package's class
 * instead of the program's line (`registrationFrames`) and the program and the plugin cost more
 * CPU. test/e2e/peer-range.test.ts runs a lifecycle on the lowest `@pulumi/pulumi` of the peer
 * range and prints which paths it takes.
 *
 * The folder stands on nothing of the package (a floor below ../model): ./switch, ./processes and
 * ./messages load nothing of `@pulumi/pulumi` (the plugin and the runtimes use them); ./program
 * loads `@pulumi/pulumi`, and only the program's side imports it.
 * @module
 */

/** The environment variable that turns every fast path off (`off`, `0` or `false`). */
export const FAST_PATHS_ENV = "PULUMI_PLATFORM_SDK_FAST_PATHS";

/** Which path an assumption takes in this process. */
export type SdkPath = "fast" | "public";

/** Whether the switch leaves the fast paths on (the default). */
export function fastPathsOn(env: Record<string, string | undefined> = process.env): boolean {
  const value = env[FAST_PATHS_ENV]?.trim().toLowerCase();
  return value !== "off" && value !== "0" && value !== "false";
}

/** A probe's verdict, never a throw: a probe that throws has failed. */
export function holds(probe: () => boolean): boolean {
  try {
    return probe() === true;
  } catch {
    return false;
  }
}

/**
 * The path of one assumption, decided once per process (the switch, then the probe), and again
 * after {@link forgetPaths}.
 */
export function decided(probe: () => boolean): () => SdkPath {
  let path: SdkPath | undefined;
  const decide = () => {
    path ??= fastPathsOn() && holds(probe) ? "fast" : "public";
    return path;
  };
  forgetters.add(() => {
    path = undefined;
  });
  return decide;
}

const forgetters = new Set<() => void>();

/** Forgets every decision, so the next use asks the switch and the probe again (tests). */
export function forgetPaths(): void {
  for (const forget of forgetters) forget();
}

/** {@link decided} for a probe that answers later (its promise rejecting is a failure). */
export function decidedLater(probe: () => Promise<boolean>): () => Promise<SdkPath> {
  let path: Promise<SdkPath> | undefined;
  forgetters.add(() => {
    path = undefined;
  });
  return () => {
    path ??= fastPathsOn()
      ? Promise.resolve()
          .then(probe)
          .then(
            (ok) => (ok === true ? "fast" : "public"),
            () => "public",
          )
      : Promise.resolve("public");
    return path;
  };
}
