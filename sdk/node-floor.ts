/**
 * Importing this stops an older Node.js with one message and no stack frames. The modules that
 * load undici import it first, so an older Node fails with a sentence that says what to do instead
 * of "Cannot read properties of undefined (reading 'bind')" from inside undici. Executables import
 * ./node-floor-bin instead (a message on stderr and exit code 1).
 * @module
 */
import { nodeFloorProblem } from "./node-floor-check";

export { NODE_FLOOR, nodeFloorProblem, olderThanFloor } from "./node-floor-check";

/**
 * The error an older Node gets at import. Its `stack` is the message alone, and it carries the
 * mark of Pulumi's `RunError` (a `__pulumiRunError` member that is `true`: how `RunError.isInstance`
 * knows one without `instanceof`), so a Pulumi program's language host prints the message and no
 * stack frames. Marked, not made with `RunError`: the sdk does not load Pulumi.
 */
export function nodeFloorError(problem: string): Error {
  const error = new Error(problem);
  error.stack = problem;
  Object.defineProperty(error, "__pulumiRunError", { value: true, enumerable: false });
  return error;
}

const problem = nodeFloorProblem();
if (problem) throw nodeFloorError(problem);
