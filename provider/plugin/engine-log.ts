/**
 * The plugin's warnings as the engine's own: the runtime warns through ../runtime/warnings, and
 * here each warning becomes a `Log` call to the engine (whose address the CLI passes as the
 * plugin's last argument), naming the resource the call was about, so `pulumi up` prints it under
 * that resource. Without this they went to the plugin's stderr, which the CLI shows only at debug
 * level. The engine client loads at the first warning only.
 * @module
 */
import type * as grpcTypes from "@grpc/grpc-js";
import type * as engineRpcTypes from "@pulumi/pulumi/proto/engine_grpc_pb";
import type * as engineTypes from "@pulumi/pulumi/proto/engine_pb";
import { pluginEngineAddress } from "../pulumi-sdk/processes";
import { sendWarningsTo, type WarningSink } from "../runtime/warnings";
import { fromPulumi } from "./wire";

/**
 * The engine's address among the plugin's arguments: the last one that is not a flag (the CLI
 * puts its own flags, such as `--logtostderr` or `--tracing <endpoint>`, before it); see
 * ../pulumi-sdk/processes.
 */
export function engineAddress(argv: readonly string[]): string | undefined {
  return pluginEngineAddress(argv);
}

interface EngineLog {
  send(message: string, urn: string): Promise<void>;
}

/** A client of the engine's `Log`, with the generated protos `@pulumi/pulumi` ships. */
function engineLog(address: string): EngineLog {
  const grpc = fromPulumi("@grpc/grpc-js") as typeof grpcTypes;
  const rpc = fromPulumi("./proto/engine_grpc_pb") as typeof engineRpcTypes;
  const proto = fromPulumi("./proto/engine_pb") as typeof engineTypes;
  const client = new rpc.EngineClient(address, grpc.credentials.createInsecure());
  return {
    send: (message, urn) =>
      new Promise((resolve, reject) => {
        const req = new proto.LogRequest()
          .setSeverity(proto.LogSeverity.WARNING)
          .setMessage(message)
          .setUrn(urn);
        client.log(req, (err) => (err ? reject(err) : resolve()));
      }),
  };
}

/** The engine's address and its client, made at first use. */
interface Engine {
  address: string;
  log?: EngineLog;
}

/** Set by {@link logWarningsToEngine} when the CLI gave the engine's address. */
let engine: Engine | undefined;

/** Sends `message` as a warning of `urn` ("" for the stack); to stderr if the engine cannot take it. */
async function toEngine(to: Engine, message: string, urn: string): Promise<void> {
  try {
    to.log ??= engineLog(to.address);
    await to.log.send(message, urn);
  } catch {
    // A notice never fails the call it came from.
    console.warn(`warning: ${message}`);
  }
}

/**
 * Sends the runtime's warnings to the engine at the address in `argv` (the plugin's arguments):
 * those of a call through {@link aboutResource}'s sink, the others as the stack's. With no
 * address (the plugin started by hand) they stay on stderr.
 */
export function logWarningsToEngine(argv: readonly string[]): void {
  const address = engineAddress(argv);
  if (!address) return;
  const to: Engine = { address };
  engine = to;
  sendWarningsTo((message) => toEngine(to, message, ""));
}

/**
 * Where the warnings of a call about the resource `urn` go: the engine's Log naming it, so the CLI
 * prints them under that resource; undefined with no engine (the runtime's default then).
 */
export function aboutResource(urn: string): WarningSink | undefined {
  const to = engine;
  return to ? (message) => toEngine(to, message, urn) : undefined;
}
