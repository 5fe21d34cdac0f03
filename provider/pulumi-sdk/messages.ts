/**
 * `resourceCallMessages`: the plugin reads the resource calls' requests and writes their answers
 * by field number (../plugin/plain-messages: google-protobuf's reader and writer, no message object
 * per property value), assuming the field numbers of provider.proto that the generated classes of
 * the installed `@pulumi/pulumi` use (see ./switch for the switch).
 *
 * - Probe: a sample request of each method, written by the generated class, reads the same by
 *   field number as through the class; a sample answer of each kind written by field number has
 *   the generated writer's very bytes and reads back the same through the generated class.
 * - Public path: the generated classes (`@pulumi/pulumi/proto/provider_pb`, which the plugin loads
 *   anyway), each property `Struct` turned into a plain object with `toJavaScript` and back with
 *   `fromJavaScript`, as the plugin did before: the same values, about a third more CPU per call.
 *
 * Nothing here loads a module: the plugin passes the generated modules it loaded.
 * @module
 */

import { isDeepStrictEqual } from "node:util";
import type * as providerTypes from "@pulumi/pulumi/proto/provider_pb";
import type * as structTypes from "google-protobuf/google/protobuf/struct_pb";
import { fastPathsOn, holds, type SdkPath } from "./switch";

type Props = Record<string, unknown>;

/** A request's fields by number: the plain name and whether it is a string or a `Struct`. */
export type RequestLayouts = Readonly<
  Record<string, Readonly<Record<number, readonly [name: string, kind: "string" | "struct"]>>>
>;

/** The answers that carry properties, as plain objects written to bytes. */
export interface AnswerEncoders {
  check(answer: { inputs: Props; failures: readonly { property: string; reason: string }[] }): Buffer;
  create(answer: { id: string; properties: Props }): Buffer;
  read(answer: { id: string; properties: Props; inputs?: Props | undefined }): Buffer;
  update(answer: { properties: Props }): Buffer;
}

/** The generated modules of `@pulumi/pulumi` the plugin loaded. */
export interface GeneratedProtos {
  provider: typeof providerTypes;
  struct: typeof structTypes;
}

/** A way to read the requests and write the answers (../plugin/plain-messages' or the generated classes'). */
export interface MessageCodecs<F extends (method: never) => unknown, E extends AnswerEncoders> {
  /** A method's request decoder (a gRPC method definition's `requestDeserialize`). */
  requestDecoder: F;
  responseEncoders: E;
  /** Each method's fields by number. */
  layouts: RequestLayouts;
}

const capital = (name: string) => `${name[0]?.toUpperCase() ?? ""}${name.slice(1)}`;

/** A generated message as the codecs use it: setters and getters by name. */
type Message = Record<string, (...args: unknown[]) => unknown> & { serializeBinary(): Uint8Array };
type MessageClass = { new (): Message; deserializeBinary(bytes: Uint8Array): Message };

function messageClass(generated: GeneratedProtos, name: string): MessageClass {
  const cls = (generated.provider as unknown as Record<string, MessageClass | undefined>)[name];
  if (typeof cls !== "function") throw new Error(`@pulumi/pulumi/proto/provider_pb has no ${name}`);
  return cls;
}

const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** The generated classes' way: the public path. */
export function generatedCodecs(
  generated: GeneratedProtos,
  layouts: RequestLayouts,
): { requestDecoder: (method: string) => (bytes: Buffer) => Props; responseEncoders: AnswerEncoders } {
  const { Struct } = generated.struct;
  const struct = (props: Props) =>
    Struct.fromJavaScript(props as Parameters<typeof Struct.fromJavaScript>[0]);
  const plain = (value: unknown) =>
    (value as structTypes.Struct | undefined)?.toJavaScript() ?? ({} as Props);
  const p = generated.provider;
  return {
    requestDecoder: (method) => {
      const cls = messageClass(generated, `${capital(method)}Request`);
      const fields = Object.values(layouts[method] ?? {});
      return (bytes) => {
        const message = cls.deserializeBinary(bytes);
        const request: Props = {};
        for (const [name, kind] of fields) {
          const value = (message[`get${capital(name)}`] as () => unknown).call(message);
          request[name] = kind === "string" ? value : plain(value);
        }
        return request;
      };
    },
    responseEncoders: {
      check: (answer) => {
        const resp = new p.CheckResponse().setInputs(struct(answer.inputs));
        resp.setFailuresList(
          answer.failures.map((f) => new p.CheckFailure().setProperty(f.property).setReason(f.reason)),
        );
        return asBuffer(resp.serializeBinary());
      },
      create: (answer) =>
        asBuffer(
          new p.CreateResponse().setId(answer.id).setProperties(struct(answer.properties)).serializeBinary(),
        ),
      read: (answer) => {
        const resp = new p.ReadResponse().setId(answer.id).setProperties(struct(answer.properties));
        if (answer.inputs) resp.setInputs(struct(answer.inputs));
        return asBuffer(resp.serializeBinary());
      },
      update: (answer) =>
        asBuffer(new p.UpdateResponse().setProperties(struct(answer.properties)).serializeBinary()),
    },
  };
}

/** Property values of every kind a `Struct` carries, nested, keys out of order. */
const SAMPLE: Props = {
  z: "last",
  a: 1.5,
  yes: true,
  none: null,
  list: [1, "two", false, null, { k: "v" }, []],
  nested: { y: {}, b: [[-0.25]], "ü ключ": "é" },
  secret: { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", value: "s" },
};
const SAMPLE_READ = { ...SAMPLE, list: [...(SAMPLE.list as unknown[])] };

/**
 * The probe: does the installed `@pulumi/pulumi`'s provider.proto agree with the field numbers
 * `fast` reads and writes? (See the module notes.)
 */
export function fastMessagesHold(
  fast: MessageCodecs<(method: never) => unknown, AnswerEncoders>,
  generated: GeneratedProtos,
): boolean {
  const pub = generatedCodecs(generated, fast.layouts);
  const { Struct } = generated.struct;
  for (const [method, layout] of Object.entries(fast.layouts)) {
    const message = new (messageClass(generated, `${capital(method)}Request`))();
    const expected: Props = {};
    for (const [name, kind] of Object.values(layout)) {
      const value = kind === "string" ? `${name}:${method}` : { ...SAMPLE, [name]: method };
      const set = message[`set${capital(name)}`];
      if (typeof set !== "function") return false;
      set.call(message, kind === "string" ? value : Struct.fromJavaScript(value as never));
      expected[name] = value;
    }
    const bytes = asBuffer(message.serializeBinary());
    const read = (fast.requestDecoder as unknown as (m: string) => (b: Buffer) => unknown)(method)(bytes);
    if (!isDeepStrictEqual(read, expected) || !isDeepStrictEqual(read, pub.requestDecoder(method)(bytes))) {
      return false;
    }
  }
  const answers: { [K in keyof AnswerEncoders]: Parameters<AnswerEncoders[K]>[0] } = {
    check: {
      inputs: SAMPLE,
      failures: [
        { property: "sizeGb", reason: "too small" },
        { property: "", reason: "r" },
      ],
    },
    create: { id: "vol_1", properties: SAMPLE },
    read: { id: "vol_1", properties: SAMPLE, inputs: SAMPLE_READ },
    update: { properties: SAMPLE },
  };
  const back = (name: string, bytes: Buffer) => messageClass(generated, name).deserializeBinary(bytes);
  const props = (message: Message, getter: string) =>
    (message[getter]?.call(message) as structTypes.Struct)?.toJavaScript();
  for (const kind of Object.keys(answers) as (keyof AnswerEncoders)[]) {
    const answer = answers[kind] as never;
    const bytes = fast.responseEncoders[kind](answer);
    if (!bytes.equals(pub.responseEncoders[kind](answer))) return false;
    const message = back(`${capital(kind)}Response`, bytes);
    const wanted = answers[kind] as { id?: string; properties?: Props; inputs?: Props };
    if (wanted.id !== undefined && message.getId?.call(message) !== wanted.id) return false;
    if (wanted.properties && !isDeepStrictEqual(props(message, "getProperties"), wanted.properties))
      return false;
    if (wanted.inputs && !isDeepStrictEqual(props(message, "getInputs"), wanted.inputs)) return false;
  }
  return true;
}

/**
 * The codecs the plugin serves the resource calls with: `fast` (../plugin/plain-messages) when the
 * switch leaves it on and the probe holds, else the generated classes, shaped as `fast`'s. Probes
 * at each call (the plugin calls it once, as it loads).
 */
export function resourceCallMessages<F extends (method: never) => unknown, E extends AnswerEncoders>(
  fast: MessageCodecs<F, E>,
  generated: GeneratedProtos,
): { requestDecoder: F; responseEncoders: E; path: SdkPath } {
  const probe = () => fastMessagesHold(fast, generated);
  const path: SdkPath = fastPathsOn() && holds(probe) ? "fast" : "public";
  if (path === "fast") return { ...fast, path };
  const pub = generatedCodecs(generated, fast.layouts);
  return {
    requestDecoder: pub.requestDecoder as unknown as F,
    responseEncoders: pub.responseEncoders as E,
    path,
  };
}
