/**
 * The program's side of the adapter (./switch: the switch, and every assumption in one table):
 * what the resource classes, the registration and the token gate assume of the `@pulumi/pulumi`
 * the program loaded. Only the program's side imports this module (it loads `@pulumi/pulumi`).
 *
 * - `stackTraceLimit`: while a resource registers, stack traces are capped (`Error.stackTraceLimit
 *   = 0`, ../registration/registration), because Pulumi's `Resource.callsites` lifts the limit to
 *   take the resource's own trace. Probe: with the limit at 0, `Resource.callsites` still gives
 *   frames. Public path: no cap (about 1.5 s more CPU per 100 Volumes).
 * - `registrationFrames`: Pulumi takes a resource's trace in `Resource.callsites` and drops that
 *   frame and the four after it (`Resource.stackTrace(4)`: `callsites`, `stackTrace`, and its three
 *   constructors'); ../registration/program-frames keeps those five, then only the program's.
 *   Probe: the V8 frames of a trace `Resource.stackTrace` takes are `callsites`, `stackTrace`, the
 *   caller; `stackTrace(1)` starts at the caller; Pulumi's constructor asks `stackTrace(4)`.
 *   Public path: no fixed count: every leading frame that is not the program's is kept, then only
 *   the program's, so no program frame is lost whatever Pulumi drops (the source position may
 *   then point at this package's class).
 * - `outputKnown`: whether an output is known is `Output.isKnown`, a private promise. Probe: a
 *   known output's resolves true and `pulumi.output(pulumi.unknown)`'s false. Public path: known
 *   when its `apply` runs before the resource's URN's `apply` and a turn of the event loop after
 *   it (the engine's answer resolves a resource's URN, id and outputs together).
 * - `mockMonitor`: under `pulumi.runtime.setMocks` the monitor is a `MockMonitor`, which holds the
 *   program's `mocks`. Probe: `MockMonitor` (`@pulumi/pulumi/runtime/mocks`) instances have
 *   `mocks`. Public path: the engine's monitor is a gRPC client (`getChannel`); anything else is
 *   not the engine.
 * @module
 */
import * as pulumi from "@pulumi/pulumi";
import { decided, decidedLater, type SdkPath } from "./switch";

/** Pulumi's private statics of `Resource` the fast paths lean on. */
interface ResourceStatics {
  callsites?: () => unknown[];
  stackTrace?: (skip: number) => unknown[];
}

/** The probe of `stackTraceLimit` (on `resource`, Pulumi's `Resource` unless a test gives another). */
export function stackTraceLimitHolds(resource: object = pulumi.Resource): boolean {
  const { callsites } = resource as ResourceStatics;
  if (typeof callsites !== "function") return false;
  const limit = Error.stackTraceLimit;
  try {
    Error.stackTraceLimit = 0;
    const frames = callsites.call(resource);
    return Array.isArray(frames) && frames.length > 0 && Error.stackTraceLimit === 0;
  } finally {
    Error.stackTraceLimit = limit;
  }
}

const stackTraceLimitPath = decided(() => stackTraceLimitHolds());

/** Which path `stackTraceLimit` takes: "fast" caps stack traces while a resource registers. */
export function stackTraceLimitPathOf(): SdkPath {
  return stackTraceLimitPath();
}

/** The frames Pulumi drops from `Resource.callsites`' list: `callsites`, `stackTrace`, three constructors'. */
export const PULUMI_SKIPS = 5;

/** A function of a known name, so that its V8 frame can be found. */
function pulumiPlatformFramesProbe(resource: object, stackTrace: (skip: number) => unknown[]): unknown[] {
  return stackTrace.call(resource, 1);
}

function formattedTrace(error: Error, sites: NodeJS.CallSite[]): string {
  return [String(error), ...sites.map((site) => `    at ${site}`)].join("\n");
}

/** The probe of `registrationFrames` (on `resource`, Pulumi's `Resource` unless a test gives another). */
export function registrationFramesHold(resource: object = pulumi.Resource): boolean {
  const { callsites, stackTrace } = resource as ResourceStatics;
  if (typeof callsites !== "function" || typeof stackTrace !== "function") return false;
  if (!/\bstackTrace\(\s*4\s*\)/.test(Function.prototype.toString.call(resource))) return false;
  let sites: NodeJS.CallSite[] | undefined;
  const prepare = Error.prepareStackTrace;
  let trace: unknown[];
  try {
    Error.prepareStackTrace = (error, frames) => {
      sites ??= frames;
      return (prepare ?? formattedTrace)(error, frames);
    };
    trace = pulumiPlatformFramesProbe(resource, stackTrace);
  } finally {
    Error.prepareStackTrace = prepare;
  }
  if (!sites || !Array.isArray(trace)) return false;
  const start = sites.findIndex((site) => site.getFunctionName() === "callsites");
  return (
    start >= 0 &&
    sites[start + 1]?.getFunctionName() === "stackTrace" &&
    sites[start + 2]?.getFunctionName() === pulumiPlatformFramesProbe.name &&
    trace.length === sites.length - start - 2
  );
}

const registrationFramesPath = decided(() => registrationFramesHold());

/** Which path `registrationFrames` takes. */
export function registrationFramesPathOf(): SdkPath {
  return registrationFramesPath();
}

/**
 * How many frames of Pulumi's registration trace, from its start, to keep as they are (the rest
 * keep only the program's): those Pulumi drops on the fast path; every leading frame that is not
 * the program's on the public one. `start` is the index of the `callsites` frame.
 */
export function framesKeptWhole(
  sites: readonly NodeJS.CallSite[],
  start: number,
  programFrame: (site: NodeJS.CallSite) => boolean,
  path: SdkPath = registrationFramesPath(),
): number {
  if (path === "fast") return start + PULUMI_SKIPS;
  const first = sites.findIndex((site, i) => i > start && programFrame(site));
  return first < 0 ? sites.length : first;
}

/** Pulumi's private `isKnown` of an output. */
function privateIsKnown(output: unknown): unknown {
  return (output as { isKnown?: unknown }).isKnown;
}

/** The probe of `outputKnown`. */
export async function outputKnownHolds(): Promise<boolean> {
  const known = privateIsKnown(pulumi.output(1));
  const unknown = privateIsKnown(pulumi.output(pulumi.unknown));
  if (!(known instanceof Promise) || !(unknown instanceof Promise)) return false;
  return (await known) === true && (await unknown) === false;
}

const outputKnownPath = decidedLater(outputKnownHolds);

/** Which path `outputKnown` takes. */
export function outputKnownPathOf(): Promise<SdkPath> {
  return outputKnownPath();
}

/**
 * Whether `output`, an output of `resource`, is known: false at preview for an output the engine
 * does not know yet (a resource to create or replace).
 */
export async function outputKnown(
  output: pulumi.Output<unknown>,
  resource: pulumi.Resource,
  path?: SdkPath,
): Promise<boolean> {
  if ((path ?? (await outputKnownPath())) === "fast") return (await privateIsKnown(output)) === true;
  return new Promise((resolve) => {
    output.apply((value) => {
      resolve(true);
      return value;
    });
    resource.urn.apply((urn) => {
      setImmediate(() => setImmediate(() => resolve(false)));
      return urn;
    });
  });
}

/** The probe of `mockMonitor`. */
export function mockMonitorHolds(): boolean {
  const { MockMonitor } = require("@pulumi/pulumi/runtime/mocks") as {
    MockMonitor?: new (mocks: unknown) => object;
  };
  return typeof MockMonitor === "function" && "mocks" in new MockMonitor({});
}

const mockMonitorPath = decided(mockMonitorHolds);

/** Which path `mockMonitor` takes. */
export function mockMonitorPathOf(): SdkPath {
  return mockMonitorPath();
}

/**
 * Whether `monitor` (`pulumi.runtime.getMonitor()`) is the engine's: not Pulumi's mocks
 * (`pulumi.runtime.setMocks`), not missing.
 */
export function engineMonitor(monitor: object | undefined, path: SdkPath = mockMonitorPath()): boolean {
  if (monitor === undefined) return false;
  if (path === "fast") return !("mocks" in monitor);
  return typeof (monitor as { getChannel?: unknown }).getChannel === "function";
}

/** Which path each assumption of the program's side takes in this process. */
export async function programPaths(): Promise<Record<string, SdkPath>> {
  return {
    stackTraceLimit: stackTraceLimitPath(),
    registrationFrames: registrationFramesPath(),
    outputKnown: await outputKnownPath(),
    mockMonitor: mockMonitorPath(),
  };
}
