#!/usr/bin/env node
/**
 * `pulumi-resource-platform`: the provider plugin the Pulumi CLI starts (found through
 * `plugins.providers` in Pulumi.yaml, installed with `pulumi plugin install resource platform <v>
 * --file`, or on PATH).
 * Prints the port of its gRPC service and serves until the engine stops it (./start).
 *
 * Every Pulumi command starts the plugin afresh, so its start is paid per command. It runs the
 * one-file build of ./start (`dist/provider/plugin/bundle.js`, written by scripts/build-plugin.js
 * at `npm run build` and `npm install`) when that was built from the modules beside it, and these
 * modules otherwise (./bundle-check): the same code either way. The bundle runs with a code cache
 * of its own (./bundle-load).
 * @module
 */
// An older Node stops the plugin at its start with one line saying what to do (not at every call).
import "../../sdk/node-floor-bin";
import "../compile-cache";
import { usableBundle } from "./bundle-check";
import { runBundle } from "./bundle-load";

type Start = typeof import("./start");

function load(): Start {
  const bundle = usableBundle(__dirname);
  if (bundle) {
    try {
      return runBundle(bundle) as Start;
    } catch {
      // A bundle this Node cannot load: the modules below are the same code.
    }
  }
  return require("./start") as Start;
}

load().start(process.argv.slice(2));
