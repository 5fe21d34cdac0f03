/**
 * The gRPC `ResourceProvider` service of `pulumi-resource-platform`, served with `@grpc/grpc-js`
 * and the generated protos `@pulumi/pulumi` ships (the same copies, resolved from its directory).
 * Not `@pulumi/pulumi/provider`'s server: its `diff` drops `detailedDiff`, its `configure` drops
 * the config, and loading it loads the whole Pulumi runtime. This module only translates messages;
 * the methods are ./resource-provider, the schema ./schema, the lookups ./functions.
 * @module
 */
import type * as grpcTypes from "@grpc/grpc-js";
import type * as pluginTypes from "@pulumi/pulumi/proto/plugin_pb";
import type * as grpcServiceTypes from "@pulumi/pulumi/proto/provider_grpc_pb";
import type * as providerTypes from "@pulumi/pulumi/proto/provider_pb";
import type * as statusTypes from "@pulumi/pulumi/proto/status_pb";
import type * as anyTypes from "google-protobuf/google/protobuf/any_pb";
import type * as emptyTypes from "google-protobuf/google/protobuf/empty_pb";
import type * as structTypes from "google-protobuf/google/protobuf/struct_pb";
import { CONFIG_KEYS } from "../model/credentials-resolver";
import { resourceCallMessages } from "../pulumi-sdk/messages";
import { finishBeforeStop } from "../runtime/before-stop";
import { PACKAGE_VERSION } from "../runtime/version";
import { invokeLookup, isLookupName } from "./functions";
import {
  type PlainCheckResponse,
  type PlainCreateResponse,
  type PlainReadResponse,
  type PlainRequest,
  type PlainUpdateResponse,
  REQUEST_LAYOUTS,
  type RequestMethod,
  requestDecoder,
  responseEncoders,
} from "./plain-messages";
import { loadRuntime, type PropertyChange, resourceProvider } from "./resource-provider";
import { packageSchema } from "./schema";
import { unwrapSecrets } from "./secrets";
import { nameOfPluginToken, PLUGIN_PACKAGE } from "./tokens";
import { fromPulumi } from "./wire";

// The protos require grpc-js and google-protobuf from @pulumi/pulumi's directory: use the same copies.
const grpc = fromPulumi("@grpc/grpc-js") as typeof grpcTypes;
const emptyproto = fromPulumi("google-protobuf/google/protobuf/empty_pb") as typeof emptyTypes;
const structproto = fromPulumi("google-protobuf/google/protobuf/struct_pb") as typeof structTypes;
const anyproto = fromPulumi("google-protobuf/google/protobuf/any_pb") as typeof anyTypes;
const plugproto = fromPulumi("./proto/plugin_pb") as typeof pluginTypes;
const provrpc = fromPulumi("./proto/provider_grpc_pb") as typeof grpcServiceTypes;
const provproto = fromPulumi("./proto/provider_pb") as typeof providerTypes;
const statusproto = fromPulumi("./proto/status_pb") as typeof statusTypes;

type Props = Record<string, unknown>;
type Struct = structTypes.Struct;

function toJs(struct: Struct | undefined): Props {
  return (struct?.toJavaScript() ?? {}) as Props;
}

function toStruct(props: Props): Struct {
  return structproto.Struct.fromJavaScript(props as Parameters<typeof structproto.Struct.fromJavaScript>[0]);
}

const KINDS: Record<PropertyChange, providerTypes.PropertyDiff.Kind> = {
  add: provproto.PropertyDiff.Kind.ADD,
  "add-replace": provproto.PropertyDiff.Kind.ADD_REPLACE,
  update: provproto.PropertyDiff.Kind.UPDATE,
  "update-replace": provproto.PropertyDiff.Kind.UPDATE_REPLACE,
  delete: provproto.PropertyDiff.Kind.DELETE,
  "delete-replace": provproto.PropertyDiff.Kind.DELETE_REPLACE,
};

/** A resource the platform made whose wait did not finish (../runtime/kept-in-stack). */
interface InitError {
  id: string;
  properties: Props;
  reasons: string[];
}

function isInitError(err: unknown): err is Error & InitError {
  return (
    err instanceof Error &&
    err.name === "ResourceInitError" &&
    typeof (err as Error & InitError).id === "string"
  );
}

/** The gRPC error of a failed call; a kept-in-stack resource carries the engine's init-failed details. */
function grpcError(err: unknown, props?: (p: Props) => Props): Partial<grpcTypes.StatusObject> {
  const message = err instanceof Error ? err.message : String(err);
  if (!isInitError(err)) return { code: grpc.status.UNKNOWN, details: message };
  const detail = new provproto.ErrorResourceInitFailed();
  detail.setId(err.id);
  detail.setProperties(toStruct(props ? props(err.properties) : err.properties));
  detail.setReasonsList(err.reasons);
  const any = new anyproto.Any();
  any.pack(detail.serializeBinary(), "pulumirpc.ErrorResourceInitFailed");
  const status = new statusproto.Status();
  status.setCode(grpc.status.UNKNOWN);
  status.setMessage(message);
  status.addDetails(any);
  const metadata = new grpc.Metadata();
  metadata.add("grpc-status-details-bin", Buffer.from(status.serializeBinary()));
  return { code: grpc.status.UNKNOWN, details: message, metadata };
}

type Callback<R> = grpcTypes.sendUnaryData<R>;

/** Runs `fn` and answers the call with its result or its error. */
function answer<Q, R>(fn: (req: Q) => Promise<R>) {
  return (call: grpcTypes.ServerUnaryCall<Q, R>, callback: Callback<R>) => {
    fn(call.request).then(
      (res) => callback(null, res),
      (err) => callback(grpcError(err)),
    );
  };
}

/** The provider's config names (`apiUrl`, `apiToken`), as the credentials resolver keys them. */
const CONFIG_NAMES = Object.keys(CONFIG_KEYS) as (keyof typeof CONFIG_KEYS)[];

/** The provider's config values by key (`apiUrl`), from `args` (newer engines) or `variables`. */
function configValues(req: providerTypes.ConfigureRequest): Record<string, string | undefined> {
  const args = unwrapSecrets(toJs(req.getArgs())).plain;
  const variables = req.getVariablesMap();
  const value = (name: string) => {
    const fromArgs = args[name];
    if (typeof fromArgs === "string") return fromArgs;
    return variables.get(`${PLUGIN_PACKAGE}:config:${name}`) ?? variables.get(`${PLUGIN_PACKAGE}:${name}`);
  };
  return Object.fromEntries(CONFIG_NAMES.map((name) => [name, value(name)]));
}

let configured: Record<string, string | undefined> = {};

function failuresList(failures: { property: string; reason: string }[]) {
  return failures.map((f) => {
    const failure = new provproto.CheckFailure();
    failure.setProperty(f.property);
    failure.setReason(f.reason);
    return failure;
  });
}

type Unary<Q, R> = grpcTypes.handleUnaryCall<Q, R>;

/** The generated service's handlers, the resource calls' on plain objects (`RESOURCE_CALLS`). */
type Service = Omit<grpcServiceTypes.IResourceProviderServer, RequestMethod> & {
  check: Unary<PlainRequest<"check">, PlainCheckResponse>;
  diff: Unary<PlainRequest<"diff">, providerTypes.DiffResponse>;
  create: Unary<PlainRequest<"create">, PlainCreateResponse>;
  read: Unary<PlainRequest<"read">, PlainReadResponse>;
  update: Unary<PlainRequest<"update">, PlainUpdateResponse>;
  delete: Unary<PlainRequest<"delete">, emptyTypes.Empty>;
};

/** The service's methods; what is not here answers UNIMPLEMENTED (grpc-js's default). */
export const service: Partial<Service> = {
  getPluginInfo: answer(async () => new plugproto.PluginInfo().setVersion(PACKAGE_VERSION)),
  attach: answer(async () => new emptyproto.Empty()),
  // The engine's stop of the plugin: the runtime's last looks run before the process ends.
  cancel: answer(async () => {
    await finishBeforeStop();
    return new emptyproto.Empty();
  }),
  getSchema: answer(async (req: providerTypes.GetSchemaRequest) => {
    if (req.getVersion() !== 0) throw new Error(`unsupported schema version ${req.getVersion()}`);
    return new provproto.GetSchemaResponse().setSchema(JSON.stringify(packageSchema()));
  }),
  // The credentials are resolved as the dynamic door resolves them (config, else environment), at
  // the resources' check, with the same messages: the provider's own inputs pass as given.
  checkConfig: answer(async (req: providerTypes.CheckRequest) =>
    new provproto.CheckResponse().setInputs(req.getNews()),
  ),
  diffConfig: answer(async (req: providerTypes.DiffRequest) => {
    const olds = unwrapSecrets(toJs(req.getOldInputs() ?? req.getOlds())).plain;
    const news = unwrapSecrets(toJs(req.getNews())).plain;
    const changed = CONFIG_NAMES.filter((k) => olds[k] !== news[k]);
    const resp = new provproto.DiffResponse();
    resp.setChanges(
      changed.length > 0
        ? provproto.DiffResponse.DiffChanges.DIFF_SOME
        : provproto.DiffResponse.DiffChanges.DIFF_NONE,
    );
    resp.setDiffsList(changed);
    return resp;
  }),
  configure: answer(async (req: providerTypes.ConfigureRequest) => {
    configured = configValues(req);
    const values = Object.fromEntries(CONFIG_NAMES.map((name) => [CONFIG_KEYS[name], configured[name]]));
    await loadRuntime().configure({ config: { get: (key: string) => values[key] } });
    const resp = new provproto.ConfigureResponse();
    resp.setAcceptsecrets(true);
    resp.setSupportspreview(false);
    resp.setAcceptresources(false);
    resp.setAcceptoutputs(false);
    return resp;
  }),
  // The resource calls take and give plain objects (./plain-messages, see `RESOURCE_CALLS` below).
  check: answer(async (req: PlainRequest<"check">): Promise<PlainCheckResponse> => {
    return await resourceProvider.check(req.urn, req.olds, req.news);
  }),
  diff: answer(async (req: PlainRequest<"diff">) => {
    const result = await resourceProvider.diff(req.urn, req.id, req.olds, req.news, req.oldInputs);
    const resp = new provproto.DiffResponse();
    resp.setChanges(
      result.changes
        ? provproto.DiffResponse.DiffChanges.DIFF_SOME
        : provproto.DiffResponse.DiffChanges.DIFF_NONE,
    );
    resp.setReplacesList(result.replaces);
    resp.setDeletebeforereplace(result.deleteBeforeReplace);
    // The kind's answer, whole: the engine never diffs the inputs itself (it would name inputs
    // the up does not change, see ./resource-provider's detailedDiff).
    const names = Object.keys(result.detailedDiff);
    resp.setDiffsList(names);
    resp.setHasdetaileddiff(true);
    const map = resp.getDetaileddiffMap();
    for (const name of names) {
      const change = result.detailedDiff[name] as PropertyChange;
      map.set(name, new provproto.PropertyDiff().setKind(KINDS[change]).setInputdiff(true));
    }
    return resp;
  }),
  create: answer(async (req: PlainRequest<"create">) => {
    const result = await resourceProvider.create(req.urn, req.properties);
    return { id: result.id, properties: result.outs };
  }),
  read: answer(async (req: PlainRequest<"read">) => {
    const result = await resourceProvider.read(req.urn, req.id, req.properties, req.inputs);
    return { id: result.id, properties: result.props, inputs: result.inputs };
  }),
  update: answer(async (req: PlainRequest<"update">) => {
    const result = await resourceProvider.update(req.urn, req.id, req.olds, req.news);
    return { properties: result.outs };
  }),
  delete: answer(async (req: PlainRequest<"delete">) => {
    await resourceProvider.delete(req.urn, req.id, req.properties);
    return new emptyproto.Empty();
  }),
  invoke: answer(async (req: providerTypes.InvokeRequest) => {
    if (req.getTok() === MOCK_FUNCTION) return mockInvoke(req);
    const name = nameOfPluginToken(req.getTok()) ?? "";
    if (!isLookupName(name)) throw new Error(`the platform provider has no function ${req.getTok()}`);
    const args = unwrapSecrets(toJs(req.getArgs())).plain;
    const credentials = Object.fromEntries(Object.entries(configured).filter(([, v]) => v !== undefined));
    const result = await invokeLookup(name, args, credentials);
    const resp = new provproto.InvokeResponse().setReturn(toStruct(result.answer));
    return resp.setFailuresList(failuresList(result.failures));
  }),
};

/** The language mocks' function (its token repeated here: the module loads at the first call only). */
const MOCK_FUNCTION = "platform:testing:mock";

/**
 * The Python and Go mocks' question (../testing/answer): a resource's check and its kind's mock
 * outputs, answered from the TypeScript mocks without calling the platform. A provider function
 * outside the schema rather than a mode of Create: no resource call changes, and a program's
 * engine never calls it.
 */
function mockInvoke(req: providerTypes.InvokeRequest): providerTypes.InvokeResponse {
  const { mockAnswer } = require("../testing/answer") as typeof import("../testing/answer");
  const args = toJs(req.getArgs());
  const inputs = unwrapSecrets((args.inputs ?? {}) as Record<string, unknown>);
  const text = (k: string) => (typeof args[k] === "string" ? (args[k] as string) : undefined);
  const answer = mockAnswer({
    type: text("type") ?? "",
    name: text("name") ?? "",
    inputs: inputs.plain,
    secretInputs: inputs.secrets,
    now: text("now"),
    region: text("region"),
    org: text("org"),
  });
  return new provproto.InvokeResponse().setReturn(toStruct(answer as unknown as Record<string, unknown>));
}

/**
 * The service's methods as the generated definition has them, but the resource calls' requests read
 * into plain objects and their answers written from plain ones (./plain-messages): same bytes on
 * the wire, without a message object per property value.
 */
const RESOURCE_CALLS = (() => {
  const generated = provrpc.ResourceProviderService;
  // By field number, or through the generated classes when ../pulumi-sdk/messages' probe says so.
  const codecs = resourceCallMessages(
    { requestDecoder, responseEncoders, layouts: REQUEST_LAYOUTS },
    { provider: provproto, struct: structproto },
  );
  const plain = <M extends RequestMethod>(method: M) => ({
    requestDeserialize: codecs.requestDecoder(method),
  });
  const { responseEncoders: encoders } = codecs;
  return {
    ...generated,
    check: { ...generated.check, ...plain("check"), responseSerialize: encoders.check },
    diff: { ...generated.diff, ...plain("diff") },
    create: { ...generated.create, ...plain("create"), responseSerialize: encoders.create },
    read: { ...generated.read, ...plain("read"), responseSerialize: encoders.read },
    update: { ...generated.update, ...plain("update"), responseSerialize: encoders.update },
    delete: { ...generated.delete, ...plain("delete") },
  };
})();

/** Starts the service on 127.0.0.1 and resolves with its port (which the engine reads on stdout). */
export function serve(): Promise<number> {
  const server = new grpc.Server({
    "grpc.max_receive_message_length": 400 * 1024 * 1024,
    "grpc.max_send_message_length": 400 * 1024 * 1024,
    // Channelz (grpc-js's call statistics for a debugging service this plugin does not serve) costs
    // about 4% of the plugin's CPU per call, profiled in a 500-volume refresh.
    "grpc.enable_channelz": 0,
  });
  server.addService(
    RESOURCE_CALLS as unknown as grpcTypes.ServiceDefinition,
    service as unknown as grpcTypes.UntypedServiceImplementation,
  );
  return new Promise((resolve, reject) => {
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, port) =>
      err ? reject(err) : resolve(port),
    );
  });
}
