/**
 * What `pulumi-resource-platform` does once loaded: sends warnings to the engine, follows the
 * engine's stop, prints the port of its gRPC service and serves until the engine stops it. Loaded
 * by ./main, from the one-file build (dist/provider/plugin/bundle.js) when it is usable, else from
 * these modules.
 * @module
 */
import { saveCompileCache } from "../compile-cache";
import { finishOnCancel } from "../runtime/before-stop";
import { logWarningsToEngine } from "./engine-log";
import { endWithEngine } from "./engine-watch";
import { serve } from "./server";

/** Starts the plugin with its command-line arguments `argv` (the engine's address is the last). */
export function start(argv: readonly string[]): void {
  logWarningsToEngine(argv);
  finishOnCancel();
  endWithEngine();

  serve().then(
    (port) => {
      process.stdout.write(`${port}\n`);
      // After the port line: the engine is not kept waiting for the write.
      setImmediate(() => saveCompileCache("serving"));
    },
    (err: unknown) => {
      console.error(`pulumi-resource-platform: ${err instanceof Error ? err.message : String(err)}`);
      process.exit(1);
    },
  );
}
