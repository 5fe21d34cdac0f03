/**
 * The plugin's warnings as the engine's own: the runtime warns through ../runtime/warnings, and
 * here each warning becomes a `Log` call to the engine (whose address the CLI passes as the
 * plugin's last argument), naming the resource the call was about, so `pulumi up` prints it under
 * that resource. Without this they went to the plugin's stderr, which the CLI shows only at debug
 * level. The engine client loads at the first warning only.
 * @module
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type * as grpcTypes from "@grpc/grpc-js";
import type * as engineRpcTypes from "@pulumi/pulumi/proto/engine_grpc_pb";
import type * as engineTypes from "@pulumi/pulumi/proto/engine_pb";
import { sendWarningsTo } from "../runtime/warnings";
import { fromPulumi } from "./wire";

const resourceOfCall = new AsyncLocalStorage<string>();

/** Runs `fn` as a call about the resource `urn`: the warnings it causes are that resource's. */
export function aboutResource<T>(urn: string, fn: () => Promise<T>): Promise<T> {
  return resourceOfCall.run(urn, fn);
}

/**
 * The engine's address among the plugin's arguments: the last one that is not a flag (the CLI
 * puts its own flags, such as `--logtostderr` or `--tracing <endpoint>`, before it).
 */
export function engineAddress(argv: readonly string[]): string | undefined {
  const last = argv.filter((a) => !a.startsWith("-")).at(-1);
  return last && /^[\w.-]+:\d+$/.test(last) ? last : undefined;
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

/**
 * Sends the runtime's warnings to the engine at the address in `argv` (the plugin's arguments);
 * with no address (the plugin started by hand) they stay on stderr. A warning the engine cannot
 * take goes to stderr too: a notice never fails the call it came from.
 */
export function logWarningsToEngine(argv: readonly string[]): void {
  const address = engineAddress(argv);
  if (!address) return;
  let log: EngineLog | undefined;
  sendWarningsTo(async (message) => {
    try {
      log ??= engineLog(address);
      await log.send(message, resourceOfCall.getStore() ?? "");
    } catch {
      console.warn(`warning: ${message}`);
    }
  });
}
