import { createRequire } from "node:module";
import type * as structTypes from "google-protobuf/google/protobuf/struct_pb";
import { describe, expect, it } from "vitest";
import {
  decodeStruct,
  encodeStruct,
  requestDecoder,
  responseEncoders,
} from "../../../provider/plugin/plain-messages";

// The generated classes the engine's messages were read with before: the reference here.
const fromPulumi = createRequire(require.resolve("@pulumi/pulumi/package.json"));
const { Struct, Value } = fromPulumi("google-protobuf/google/protobuf/struct_pb") as typeof structTypes;
const proto = fromPulumi("./proto/provider_pb");

const SECRET_SIG = "4dabf18193072939515e22adb298388d";
const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** Property values as the engine sends them: secrets, unknowns, nesting, every scalar. */
const CORPUS: Record<string, unknown>[] = [
  {},
  { app: "demo-app", name: "data", region: "ord", sizeGb: 10, encrypted: true, snapshotRetention: 0 },
  { password: { [SECRET_SIG]: "1b47061264138c4ac30d75fd1eb44270", value: "s3cr3t" }, username: "app" },
  { sizeGb: UNKNOWN, tags: [UNKNOWN, "a"], nothing: null, empty: "", no: false, zero: 0 },
  { z: 1, a: 2, m: { y: [], b: {}, a: [[1, [2, { c: null }]], { k: "v" }] } },
  { "ünïcødé ключ": "значение ✓", "": "empty key", "with space": -1.5, big: 1e300, tiny: 5e-324 },
  { negZero: -0, int: 2 ** 53 - 1, neg: -(2 ** 31), frac: 0.1 + 0.2 },
  { __provider: "exports.handler = require('x')", __defaults: [], triggers: ["2026-01-01T00:00:00Z"] },
];

/** A seeded generator of property trees (so a failure names the same case on every run). */
function randomProps(seed: number): Record<string, unknown> {
  let state = seed;
  const next = () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
  const key = () =>
    ["a", "b", "sizeGb", "Z", "é", "key-with-dash", "_x", "10", "9"][Math.floor(next() * 9)] as string;
  const value = (depth: number): unknown => {
    const pick = Math.floor(next() * (depth > 3 ? 5 : 7));
    switch (pick) {
      case 0:
        return null;
      case 1:
        return next() * 1e6 - 5e5;
      case 2:
        return next()
          .toString(36)
          .repeat(Math.floor(next() * 4));
      case 3:
        return next() > 0.5;
      case 4:
        return Math.floor(next() * 100);
      case 5:
        return Array.from({ length: Math.floor(next() * 4) }, () => value(depth + 1));
      default: {
        const obj: Record<string, unknown> = {};
        for (let i = Math.floor(next() * 5); i > 0; i--) obj[key()] = value(depth + 1);
        return obj;
      }
    }
  };
  const top: Record<string, unknown> = {};
  for (let i = Math.floor(next() * 8); i > 0; i--) top[key()] = value(0);
  return top;
}

const ALL = [...CORPUS, ...Array.from({ length: 300 }, (_, i) => randomProps(i + 1))];

const generatedBytes = (props: Record<string, unknown>) =>
  Struct.fromJavaScript(props as Parameters<typeof Struct.fromJavaScript>[0]).serializeBinary();
const generatedValues = (bytes: Uint8Array) => Struct.deserializeBinary(bytes).toJavaScript();

describe("property values read and written without the generated classes", () => {
  it("read: the same values, keys in the same order, as Struct.toJavaScript", () => {
    for (const props of ALL) {
      const bytes = generatedBytes(props);
      const plain = decodeStruct(bytes);
      expect(plain).toEqual(generatedValues(bytes));
      expect(JSON.stringify(plain)).toBe(JSON.stringify(generatedValues(bytes)));
    }
  });

  it("written: the same bytes as Struct.fromJavaScript", () => {
    for (const props of ALL)
      expect(Buffer.from(encodeStruct(props))).toEqual(Buffer.from(generatedBytes(props)));
  });

  it("keys that arrive unsorted (as Go's map order sends them) come out sorted, as before", () => {
    // Entries c, a, b: written by hand in that order, which the generated writer never does.
    const entries = ["c", "a", "b"].map((k) => {
      const entry = new Struct();
      entry.getFieldsMap().set(k, Value.fromJavaScript(k));
      return Buffer.from(entry.serializeBinary());
    });
    const bytes = Buffer.concat(entries);
    expect(Object.keys(decodeStruct(bytes))).toEqual(["a", "b", "c"]);
    expect(Object.keys(generatedValues(bytes))).toEqual(["a", "b", "c"]);
  });

  it("what the generated classes refuse is refused: undefined, a function, a value with no kind", () => {
    for (const bad of [{ a: undefined }, { a: () => 1 }, { a: [undefined] }]) {
      expect(() => generatedBytes(bad)).toThrow("Unexpected struct type");
      expect(() => encodeStruct(bad)).toThrow("Unexpected struct type");
    }
    const noKind = new Struct();
    noKind.getFieldsMap().set("a", new Value());
    const bytes = noKind.serializeBinary();
    expect(() => generatedValues(bytes)).toThrow("Unexpected struct type");
    expect(() => decodeStruct(bytes)).toThrow("Unexpected struct type");
  });
});

describe("the resource calls' messages", () => {
  const olds = CORPUS[1] as Record<string, unknown>;
  const news = CORPUS[3] as Record<string, unknown>;
  const struct = (p: Record<string, unknown>) =>
    Struct.fromJavaScript(p as Parameters<typeof Struct.fromJavaScript>[0]);
  const urn = "urn:pulumi:dev::p::platform:index:Volume::data";
  const decode = (method: Parameters<typeof requestDecoder>[0], message: { serializeBinary(): Uint8Array }) =>
    requestDecoder(method)(Buffer.from(message.serializeBinary()));

  it("requests: the fields the server reads, every other field skipped, a missing one empty", () => {
    const check = new proto.CheckRequest().setUrn(urn).setOlds(struct(olds)).setNews(struct(news));
    check
      .setRandomseed(new Uint8Array([1, 2, 3]))
      .setName("data")
      .setType("platform:index:Volume");
    check.setOldOutputs(struct({ id: "vol_1" }));
    expect(decode("check", check)).toEqual({ urn, olds, news });

    const diff = new proto.DiffRequest()
      .setId("vol_1")
      .setUrn(urn)
      .setOlds(struct(olds))
      .setNews(struct(news));
    diff
      .setIgnorechangesList(["tags"])
      .setOldInputs(struct({ app: "x" }))
      .setName("data");
    // The old inputs too: the kind's answer compares stored inputs with them (provider/model/change-plan).
    expect(decode("diff", diff)).toEqual({ id: "vol_1", urn, olds, news, oldInputs: { app: "x" } });

    const create = new proto.CreateRequest()
      .setUrn(urn)
      .setProperties(struct(news))
      .setTimeout(30)
      .setPreview(true);
    expect(decode("create", create)).toEqual({ urn, properties: news });

    const read = new proto.ReadRequest().setId("vol_1").setUrn(urn).setProperties(struct(olds)).setTimeout(5);
    expect(decode("read", read)).toEqual({ id: "vol_1", urn, properties: olds, inputs: {} });

    const update = new proto.UpdateRequest()
      .setId("vol_1")
      .setUrn(urn)
      .setOlds(struct(olds))
      .setNews(struct(news));
    update
      .setTimeout(60)
      .setPreview(false)
      .setOldInputs(struct({ a: 1 }))
      .setType("platform:index:Volume");
    expect(decode("update", update)).toEqual({ id: "vol_1", urn, olds, news });

    const del = new proto.DeleteRequest()
      .setId("vol_1")
      .setUrn(urn)
      .setProperties(struct(olds))
      .setTimeout(9);
    expect(decode("delete", del)).toEqual({ id: "vol_1", urn, properties: olds });

    expect(decode("read", new proto.ReadRequest())).toEqual({ id: "", urn: "", properties: {}, inputs: {} });
  });

  it("answers: the same bytes as the generated classes write", () => {
    const failures = [
      { property: "sizeGb", reason: "sizeGb must be at least 1" },
      { property: "", reason: "no platform API token" },
    ];
    const check = new proto.CheckResponse().setInputs(struct(news));
    check.setFailuresList(
      failures.map((f) => new proto.CheckFailure().setProperty(f.property).setReason(f.reason)),
    );
    expect(responseEncoders.check({ inputs: news, failures })).toEqual(Buffer.from(check.serializeBinary()));

    const create = new proto.CreateResponse().setId("vol_1").setProperties(struct(olds));
    expect(responseEncoders.create({ id: "vol_1", properties: olds })).toEqual(
      Buffer.from(create.serializeBinary()),
    );

    const read = new proto.ReadResponse().setId("vol_1").setProperties(struct(olds)).setInputs(struct(news));
    expect(responseEncoders.read({ id: "vol_1", properties: olds, inputs: news })).toEqual(
      Buffer.from(read.serializeBinary()),
    );
    // A gone resource: blank id, empty properties, no inputs.
    const gone = new proto.ReadResponse().setId("").setProperties(struct({}));
    expect(responseEncoders.read({ id: "", properties: {} })).toEqual(Buffer.from(gone.serializeBinary()));

    const update = new proto.UpdateResponse().setProperties(struct(olds));
    expect(responseEncoders.update({ properties: olds })).toEqual(Buffer.from(update.serializeBinary()));
  });
});
