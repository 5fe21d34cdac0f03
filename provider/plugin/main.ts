#!/usr/bin/env node
/**
 * `pulumi-resource-platform`: the provider plugin the Pulumi CLI starts (found on PATH, e.g. from
 * `node_modules/.bin`, or installed with `pulumi plugin install resource platform <v> --file`).
 * Prints the port of its gRPC service and serves until the engine stops it.
 * @module
 */
import { saveCompileCache } from "../compile-cache";
import { finishOnCancel } from "../runtime/before-stop";
import { logWarningsToEngine } from "./engine-log";
import { endWithEngine } from "./engine-watch";
import { serve } from "./server";

logWarningsToEngine(process.argv.slice(2));
finishOnCancel();
endWithEngine();

serve().then(
  (port) => {
    process.stdout.write(`${port}\n`);
    // After the port line: the engine is not kept waiting for the write.
    setImmediate(saveCompileCache);
  },
  (err: unknown) => {
    console.error(`pulumi-resource-platform: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
