/**
 * The stack trace Pulumi records with a resource: the program's own frames only.
 *
 * Pulumi's SDK takes a stack trace at every registration and the engine keeps it in the state:
 * its first frame is the resource's `sourcePosition` (where errors and the console point), the
 * rest its `stackTrace`. It skips the frames of Pulumi's own constructors, but not ours: every
 * Volume pointed at this package's registration.ts instead of the program's line, and carried
 * about 650 bytes of frames of this package, ts-node and Pulumi's program runner. The engine
 * rewrites the whole checkpoint after every step, so those bytes were paid N² times per `up`.
 * While a resource registers, the frames below Pulumi's constructors that belong to this
 * package, to node_modules or to Node itself are left out; the program's frames (and their
 * source-mapped positions) stay, anonymous ones written so that Pulumi can read them.
 * @module
 */
import * as path from "node:path";
import { framesKeptWhole, registrationFramesPathOf } from "../pulumi-sdk/program";
import type { SdkPath } from "../pulumi-sdk/switch";

/** Where this package's compiled provider code lives (the resource classes' and the model's frames). */
const OWN_DIR = path.resolve(__dirname, "..") + path.sep;

function programFrame(site: NodeJS.CallSite): boolean {
  const file = site.getFileName();
  if (typeof file !== "string" || file === "" || file.startsWith("node:")) return false;
  return !file.startsWith(OWN_DIR) && !file.includes(`${path.sep}node_modules${path.sep}`);
}

/**
 * Of the frames of Pulumi's registration trace, keeps those Pulumi drops (`Resource.callsites`' and
 * the four after it: ../pulumi-sdk/program's `registrationFrames`, which keeps every leading frame
 * that is not the program's when that count cannot be trusted), then only the program's. Any
 * other trace is left as it is.
 */
export function keepProgramFrames(
  sites: NodeJS.CallSite[],
  path: SdkPath = registrationFramesPathOf(),
): NodeJS.CallSite[] {
  const start = sites.findIndex((site) => site.getFunctionName() === "callsites");
  if (start < 0) return sites;
  const kept = framesKeptWhole(sites, start, programFrame, path);
  return [...sites.slice(0, kept), ...sites.slice(kept).filter(programFrame)];
}

/**
 * A frame of an anonymous function (`at /app/index.ts:6:13`, as in `Array.from(…, () => new
 * Volume(…))`): Pulumi reads positions only from `at name (file:line:column)`, so such a frame
 * gave the resource no source position.
 */
const ANONYMOUS_FRAME = /^(\s*at )([^()\s][^()]*:\d+:\d+)$/gm;

function formatted(error: Error, sites: NodeJS.CallSite[]): string {
  return [String(error), ...sites.map((site) => `    at ${site}`)].join("\n");
}

/**
 * Cuts stack traces to the program's frames (see the module notes) until the returned function
 * puts the previous formatting back.
 */
export function cutToProgramFrames(): () => void {
  // Decided here, never inside the hook: the probe takes a trace of its own, which V8 would not
  // format through a hook that is running.
  const path = registrationFramesPathOf();
  const prepare = Error.prepareStackTrace;
  Error.prepareStackTrace = (error, sites) => {
    const stack: unknown = (prepare ?? formatted)(error, keepProgramFrames(sites, path));
    return typeof stack === "string" ? stack.replace(ANONYMOUS_FRAME, "$1<anonymous> ($2)") : stack;
  };
  return () => {
    Error.prepareStackTrace = prepare;
  };
}
