/**
 * The resource calls' messages read and written as plain objects, with google-protobuf's own
 * `BinaryReader` and `BinaryWriter`, instead of through the generated message classes: those build
 * a message object for every property value (`Struct`, `Value`, `ListValue`, a map entry each) only
 * for ./server to turn them into plain objects (`toJavaScript`) and back (`fromJavaScript`), which
 * was about a third of the plugin's CPU per call (profiled in a 500-volume refresh). Same bytes and
 * same values as the generated classes (test/unit/provider/plugin-plain-messages.test.ts compares
 * both on the same inputs). The field numbers are those of Pulumi's provider.proto as the generated
 * `@pulumi/pulumi/proto/provider_pb.js` reads them; a field not listed here is skipped. ./server
 * serves with them only while ../pulumi-sdk/messages' probe finds the installed generated classes
 * agree (the generated classes otherwise, or with `PULUMI_PLATFORM_SDK_FAST_PATHS=off`).
 * @module
 */
import type * as jspbTypes from "google-protobuf";
import { fromPulumi } from "./wire";

const jspb = fromPulumi("google-protobuf") as typeof jspbTypes;
type Reader = jspbTypes.BinaryReader;
type Writer = jspbTypes.BinaryWriter;

/** Property values as google-protobuf's `Struct.toJavaScript` gives them. */
export type Props = Record<string, unknown>;

// google.protobuf.Value's fields (its `kind`), ListValue's and Struct's.
const NULL_VALUE = 1;
const NUMBER_VALUE = 2;
const STRING_VALUE = 3;
const BOOL_VALUE = 4;
const STRUCT_VALUE = 5;
const LIST_VALUE = 6;
const LIST_VALUES = 1;
const STRUCT_FIELDS = 1;
const ENTRY_KEY = 1;
const ENTRY_VALUE = 2;

/** Reads one `Value` (the reader bounded to it); one with no kind set is refused, as `toJavaScript` does. */
function readValue(reader: Reader): unknown {
  let value: unknown;
  let set = false;
  while (reader.nextField()) {
    if (reader.isEndGroup()) break;
    switch (reader.getFieldNumber()) {
      case NULL_VALUE:
        reader.readEnum();
        value = null;
        break;
      case NUMBER_VALUE:
        value = reader.readDouble();
        break;
      case STRING_VALUE:
        value = reader.readString();
        break;
      case BOOL_VALUE:
        value = reader.readBool();
        break;
      case STRUCT_VALUE: {
        const struct: Props = {};
        reader.readMessage(struct, readStructInto);
        value = sortedKeys(struct);
        break;
      }
      case LIST_VALUE: {
        const list: unknown[] = [];
        reader.readMessage(list, readListInto);
        value = list;
        break;
      }
      default:
        reader.skipField();
        continue;
    }
    set = true;
  }
  if (!set) throw new Error("Unexpected struct type");
  return value;
}

/** Reads a `Value` into a holder (`readMessage` reads into an object). */
function readHeld(holder: { value?: unknown }, reader: Reader): void {
  holder.value = readValue(reader);
}

function readListInto(list: unknown[], reader: Reader): void {
  while (reader.nextField()) {
    if (reader.isEndGroup()) break;
    if (reader.getFieldNumber() !== LIST_VALUES) {
      reader.skipField();
      continue;
    }
    const holder: { value?: unknown } = {};
    reader.readMessage(holder, readHeld);
    list.push(holder.value);
  }
}

/** A map entry of `Struct.fields`; a missing value is a Value with no kind (refused above). */
function readEntryInto(entry: { key: string; value?: unknown }, reader: Reader): void {
  let hasValue = false;
  while (reader.nextField()) {
    if (reader.isEndGroup()) break;
    switch (reader.getFieldNumber()) {
      case ENTRY_KEY:
        entry.key = reader.readString();
        break;
      case ENTRY_VALUE:
        hasValue = true;
        reader.readMessage(entry, readHeld);
        break;
      default:
        reader.skipField();
    }
  }
  if (!hasValue) throw new Error("Unexpected struct type");
}

function readStructInto(struct: Props, reader: Reader): void {
  while (reader.nextField()) {
    if (reader.isEndGroup()) break;
    if (reader.getFieldNumber() !== STRUCT_FIELDS) {
      reader.skipField();
      continue;
    }
    const entry: { key: string; value?: unknown } = { key: "" };
    reader.readMessage(entry, readEntryInto);
    struct[entry.key] = entry.value;
  }
}

/** The keys in the order google-protobuf's map gives them (sorted), which the engine's order is not. */
function sortedKeys(struct: Props): Props {
  const keys = Object.keys(struct);
  let sorted = true;
  for (let i = 1; i < keys.length && sorted; i++) sorted = (keys[i - 1] as string) < (keys[i] as string);
  if (sorted) return struct;
  const out: Props = {};
  for (const key of keys.sort()) out[key] = struct[key];
  return out;
}

/** A `Struct` message's bytes as a plain object (what `Struct.deserializeBinary(b).toJavaScript()` gives). */
export function decodeStruct(bytes: Uint8Array): Props {
  const struct: Props = {};
  readStructInto(struct, new jspb.BinaryReader(bytes));
  return sortedKeys(struct);
}

function writeValue(value: unknown, writer: Writer): void {
  if (value === null) writer.writeEnum(NULL_VALUE, 0);
  else if (typeof value === "string") writer.writeString(STRING_VALUE, value);
  else if (typeof value === "number") writer.writeDouble(NUMBER_VALUE, value);
  else if (typeof value === "boolean") writer.writeBool(BOOL_VALUE, value);
  else if (Array.isArray(value)) writer.writeMessage(LIST_VALUE, value, writeListFields);
  else if (typeof value === "object") writer.writeMessage(STRUCT_VALUE, value, writeStructFields);
  else throw new Error("Unexpected struct type.");
}

// `writeMessage` writes nothing for a null message, so values travel in a holder.
function writeHeld(holder: { value: unknown }, writer: Writer): void {
  writeValue(holder.value, writer);
}

function writeListFields(list: unknown[], writer: Writer): void {
  for (const value of list) writer.writeMessage(LIST_VALUES, { value }, writeHeld);
}

function writeEntry(entry: { key: string; value: unknown }, writer: Writer): void {
  writer.writeString(ENTRY_KEY, entry.key);
  writer.writeMessage(ENTRY_VALUE, entry, writeHeld);
}

function writeStructFields(struct: object, writer: Writer): void {
  const props = struct as Props;
  // google-protobuf's map writes its keys sorted; `for…in` is what `Struct.fromJavaScript` walks.
  const keys: string[] = [];
  for (const key in props) keys.push(key);
  for (const key of keys.sort()) writer.writeMessage(STRUCT_FIELDS, { key, value: props[key] }, writeEntry);
}

/** A plain object as a `Struct` message's bytes (what `Struct.fromJavaScript(p).serializeBinary()` gives). */
export function encodeStruct(props: Props): Uint8Array {
  const writer = new jspb.BinaryWriter();
  writeStructFields(props, writer);
  return writer.getResultBuffer();
}

// ---------------------------------------------------------------------------------------------
// The resource calls' requests and the answers that carry properties.

type FieldKind = "string" | "struct";
type Layout = Readonly<Record<number, readonly [string, FieldKind]>>;

/** The fields of each request that ./server reads, by field number (provider.proto). */
export const REQUEST_LAYOUTS = {
  check: { 1: ["urn", "string"], 2: ["olds", "struct"], 3: ["news", "struct"] },
  diff: {
    1: ["id", "string"],
    2: ["urn", "string"],
    3: ["olds", "struct"],
    4: ["news", "struct"],
    6: ["oldInputs", "struct"],
  },
  create: { 1: ["urn", "string"], 2: ["properties", "struct"] },
  read: { 1: ["id", "string"], 2: ["urn", "string"], 3: ["properties", "struct"], 4: ["inputs", "struct"] },
  update: { 1: ["id", "string"], 2: ["urn", "string"], 3: ["olds", "struct"], 4: ["news", "struct"] },
  delete: { 1: ["id", "string"], 2: ["urn", "string"], 3: ["properties", "struct"] },
} as const satisfies Record<string, Layout>;

export type RequestMethod = keyof typeof REQUEST_LAYOUTS;

/** A request as a plain object: every listed field, "" and {} when the engine left it out. */
export type PlainRequest<M extends RequestMethod> = {
  [F in keyof (typeof REQUEST_LAYOUTS)[M] as (typeof REQUEST_LAYOUTS)[M][F] extends readonly [
    infer Name extends string,
    FieldKind,
  ]
    ? Name
    : never]: (typeof REQUEST_LAYOUTS)[M][F] extends readonly [string, "struct"] ? Props : string;
};

/** The decoder of a method's request (a gRPC method definition's `requestDeserialize`). */
export function requestDecoder<M extends RequestMethod>(method: M): (bytes: Buffer) => PlainRequest<M> {
  const layout: Layout = REQUEST_LAYOUTS[method];
  const fields = Object.values(layout);
  return (bytes) => {
    const request: Record<string, unknown> = {};
    for (const [name, kind] of fields) request[name] = kind === "string" ? "" : {};
    const reader = new jspb.BinaryReader(bytes);
    while (reader.nextField()) {
      if (reader.isEndGroup()) break;
      const field = layout[reader.getFieldNumber()];
      if (!field) {
        reader.skipField();
        continue;
      }
      const [name, kind] = field;
      if (kind === "string") {
        request[name] = reader.readString();
      } else {
        const struct: Props = {};
        reader.readMessage(struct, readStructInto);
        request[name] = sortedKeys(struct);
      }
    }
    return request as PlainRequest<M>;
  };
}

/** A check's answer: the checked inputs and the failures (`CheckResponse`: inputs 1, failures 2). */
export interface PlainCheckResponse {
  inputs: Props;
  failures: readonly { property: string; reason: string }[];
}

/** `CreateResponse`: id 1, properties 2. */
export interface PlainCreateResponse {
  id: string;
  properties: Props;
}

/** `ReadResponse`: id 1, properties 2, inputs 3 (left out when there are none). */
export interface PlainReadResponse {
  id: string;
  properties: Props;
  inputs?: Props | undefined;
}

/** `UpdateResponse`: properties 1. */
export interface PlainUpdateResponse {
  properties: Props;
}

function writeFailure(failure: { property: string; reason: string }, writer: Writer): void {
  // proto3 leaves an empty string out, as the generated writer does.
  if (failure.property) writer.writeString(1, failure.property);
  if (failure.reason) writer.writeString(2, failure.reason);
}

function finish(writer: Writer): Buffer {
  const bytes = writer.getResultBuffer();
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** The writers of the answers that carry properties (a gRPC method definition's `responseSerialize`). */
export const responseEncoders = {
  check(response: PlainCheckResponse): Buffer {
    const writer = new jspb.BinaryWriter();
    writer.writeMessage(1, response.inputs, writeStructFields);
    for (const failure of response.failures) writer.writeMessage(2, failure, writeFailure);
    return finish(writer);
  },
  create(response: PlainCreateResponse): Buffer {
    const writer = new jspb.BinaryWriter();
    if (response.id) writer.writeString(1, response.id);
    writer.writeMessage(2, response.properties, writeStructFields);
    return finish(writer);
  },
  read(response: PlainReadResponse): Buffer {
    const writer = new jspb.BinaryWriter();
    if (response.id) writer.writeString(1, response.id);
    writer.writeMessage(2, response.properties, writeStructFields);
    if (response.inputs) writer.writeMessage(3, response.inputs, writeStructFields);
    return finish(writer);
  },
  update(response: PlainUpdateResponse): Buffer {
    const writer = new jspb.BinaryWriter();
    writer.writeMessage(1, response.properties, writeStructFields);
    return finish(writer);
  },
};
