/**
 * The first import of each executable (the plugin, the emulator, `pulumi-platform`): an older
 * Node.js prints the one message of ./node-floor-check on stderr and exits 1, before anything
 * that needs a newer one loads.
 * @module
 */
import { nodeFloorProblem } from "./node-floor-check";

const problem = nodeFloorProblem();
if (problem) {
  process.stderr.write(`${problem}\n`);
  process.exit(1);
}
