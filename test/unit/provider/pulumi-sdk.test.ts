import { createRequire } from "node:module";
import path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import type * as providerTypes from "@pulumi/pulumi/proto/provider_pb";
import type * as structTypes from "google-protobuf/google/protobuf/struct_pb";
import { afterEach, describe, expect, it, vi } from "vitest";
import { REQUEST_LAYOUTS, requestDecoder, responseEncoders } from "../../../provider/plugin/plain-messages";
import {
  fastMessagesHold,
  type GeneratedProtos,
  generatedCodecs,
  resourceCallMessages,
} from "../../../provider/pulumi-sdk/messages";
import {
  dynamicHostArgsPath,
  dynamicHostEngine,
  hostLogPathOf,
  hostWarn,
  pluginArgsPath,
  pluginEngineAddress,
  pulumiProviderArgs,
} from "../../../provider/pulumi-sdk/processes";
import {
  engineMonitor,
  framesKeptWhole,
  mockMonitorHolds,
  outputKnown,
  outputKnownHolds,
  programPaths,
  registrationFramesHold,
  stackTraceLimitHolds,
} from "../../../provider/pulumi-sdk/program";
import { FAST_PATHS_ENV, fastPathsOn, forgetPaths, holds } from "../../../provider/pulumi-sdk/switch";
import { keepProgramFrames } from "../../../provider/registration/program-frames";
import { engineSources } from "../../../provider/registration/token-gate";

// The adapter between the package and @pulumi/pulumi's internals (provider/pulumi-sdk): each fast
// path's probe holds on the installed SDK and fails on one that behaves otherwise; with the switch
// off every caller takes the public path and gives the same answers.

const fromPulumi = createRequire(require.resolve("@pulumi/pulumi/package.json"));
const generated: GeneratedProtos = {
  provider: fromPulumi("./proto/provider_pb") as typeof providerTypes,
  struct: fromPulumi("google-protobuf/google/protobuf/struct_pb") as typeof structTypes,
};
const fast = { requestDecoder, responseEncoders, layouts: REQUEST_LAYOUTS };

function switchOff(): void {
  vi.stubEnv(FAST_PATHS_ENV, "off");
  forgetPaths();
}
afterEach(() => {
  vi.unstubAllEnvs();
  forgetPaths();
});

describe("the switch", () => {
  it("PULUMI_PLATFORM_SDK_FAST_PATHS=off (or 0, false) turns the fast paths off; anything else leaves them on", () => {
    expect(fastPathsOn({})).toBe(true);
    expect(fastPathsOn({ [FAST_PATHS_ENV]: "on" })).toBe(true);
    expect(fastPathsOn({ [FAST_PATHS_ENV]: "" })).toBe(true);
    for (const off of ["off", "OFF", " 0", "false"])
      expect(fastPathsOn({ [FAST_PATHS_ENV]: off })).toBe(false);
  });

  it("on the installed @pulumi/pulumi every probe holds; with the switch off every path is public", async () => {
    expect(await programPaths()).toEqual({
      stackTraceLimit: "fast",
      registrationFrames: "fast",
      outputKnown: "fast",
      mockMonitor: "fast",
    });
    expect(await hostLogPathOf()).toBe("fast");
    switchOff();
    expect(await programPaths()).toEqual({
      stackTraceLimit: "public",
      registrationFrames: "public",
      outputKnown: "public",
      mockMonitor: "public",
    });
    expect(await hostLogPathOf()).toBe("public");
    expect(resourceCallMessages(fast, generated).path).toBe("public");
    expect(pluginArgsPath(["127.0.0.1:1"])).toBe("public");
  });
});

/** Property trees as the engine sends them: secrets, unknowns, nesting, keys out of order. */
const CORPUS: Record<string, unknown>[] = [
  {},
  { app: "demo-app", name: "data", region: "ord", sizeGb: 10, encrypted: true },
  { password: { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", value: "s" } },
  { sizeGb: "04da6b54-80e4-46f7-96ec-b56ff0331ba9", tags: ["b", "a"], nothing: null, zero: 0, no: false },
  { z: 1, a: 2, m: { y: [], b: {}, a: [[1, [2, { c: null }]], { k: "v" }] }, "ü ключ": -1.5 },
];

describe("resourceCallMessages: the plugin's messages", () => {
  it("the probe holds on the installed generated classes", () => {
    expect(fastMessagesHold(fast, generated)).toBe(true);
    expect(resourceCallMessages(fast, generated).path).toBe("fast");
    expect(resourceCallMessages(fast, generated).requestDecoder).toBe(requestDecoder);
  });

  it("fails on a Pulumi whose request fields moved (a CheckRequest numbered as a DiffRequest)", () => {
    const moved = {
      ...generated,
      provider: { ...generated.provider, CheckRequest: generated.provider.DiffRequest },
    } as unknown as GeneratedProtos;
    expect(holds(() => fastMessagesHold(fast, moved))).toBe(false);
    // And the plugin then reads through the generated classes, never by field number.
    expect(resourceCallMessages(fast, moved).path).toBe("public");
  });

  it("fails (a throw is a failure) on a Pulumi whose answers are read otherwise (a CreateResponse read as an UpdateResponse)", () => {
    const moved = {
      ...generated,
      provider: { ...generated.provider, CreateResponse: generated.provider.UpdateResponse },
    } as unknown as GeneratedProtos;
    expect(holds(() => fastMessagesHold(fast, moved))).toBe(false);
  });

  it("with the switch off the plugin reads and writes through the generated classes: the same values and bytes", () => {
    switchOff();
    const pub = resourceCallMessages(fast, generated);
    expect(pub.path).toBe("public");
    expect(pub.requestDecoder).not.toBe(requestDecoder);
    const { Struct } = generated.struct;
    const struct = (p: Record<string, unknown>) => Struct.fromJavaScript(p as never);
    for (const props of CORPUS) {
      const diff = new generated.provider.DiffRequest()
        .setId("vol_1")
        .setUrn("urn:pulumi:s::p::platform:index:Volume::v")
        .setOlds(struct(props))
        .setNews(struct({ ...props, sizeGb: 11 }))
        .setOldInputs(struct(props))
        .setName("ignored");
      const bytes = Buffer.from(diff.serializeBinary());
      const read = pub.requestDecoder("diff")(bytes);
      expect(read).toEqual(requestDecoder("diff")(bytes));
      expect(read).toEqual({
        id: "vol_1",
        urn: "urn:pulumi:s::p::platform:index:Volume::v",
        olds: diff.getOlds()?.toJavaScript(),
        news: diff.getNews()?.toJavaScript(),
        oldInputs: diff.getOldInputs()?.toJavaScript(),
      });
      // A request with its fields left out reads as "" and {} either way.
      expect(pub.requestDecoder("delete")(Buffer.alloc(0))).toEqual({ id: "", urn: "", properties: {} });
      expect(requestDecoder("delete")(Buffer.alloc(0))).toEqual({ id: "", urn: "", properties: {} });

      const check = { inputs: props, failures: [{ property: "sizeGb", reason: "too small" }] };
      expect(pub.responseEncoders.check(check).equals(responseEncoders.check(check))).toBe(true);
      const read2 = { id: "vol_1", properties: props, inputs: { ...props, extra: "x" } };
      expect(pub.responseEncoders.read(read2).equals(responseEncoders.read(read2))).toBe(true);
      const created = generated.provider.CreateResponse.deserializeBinary(
        pub.responseEncoders.create({ id: "vol_2", properties: props }),
      );
      expect(created.getId()).toBe("vol_2");
      expect(created.getProperties()?.toJavaScript()).toEqual(props);
    }
    expect(generatedCodecs(generated, REQUEST_LAYOUTS).responseEncoders.update({ properties: {} })).toEqual(
      responseEncoders.update({ properties: {} }),
    );
  });
});

/** A V8 call site of `name` in `file`, enough for the frame cutting. */
const site = (name: string | null, file: string) =>
  ({
    getFunctionName: () => name,
    getFileName: () => file,
    toString: () => `${name} (${file}:1:1)`,
  }) as unknown as NodeJS.CallSite;

const PULUMI = "/app/node_modules/@pulumi/pulumi/resource.js";
const OWN = path.resolve(__dirname, "../../../provider/registration/kind-resource.ts");
/** The frames of a Volume's registration trace: Pulumi's, this package's classes', the program's, ts-node's, Node's. */
const REGISTRATION = [
  site("callsites", PULUMI),
  site("stackTrace", PULUMI),
  site("Resource", PULUMI),
  site("CustomResource", PULUMI),
  site("KindResource", OWN),
  site("VolumeResource", OWN),
  site("Volume", OWN),
  site(null, "/app/index.ts"),
  site("Module._compile", "/app/node_modules/ts-node/dist/index.js"),
  site("main", "/app/main.ts"),
  site("processTicksAndRejections", "node:internal/process/task_queues"),
];
const names = (sites: NodeJS.CallSite[]) => sites.map((s) => `${s.getFunctionName() ?? s.getFileName()}`);

describe("registrationFrames and stackTraceLimit: the registration's stack traces", () => {
  it("the probes hold on the installed Resource", () => {
    expect(stackTraceLimitHolds()).toBe(true);
    expect(registrationFramesHold()).toBe(true);
  });

  it("fail on a Resource that drops another count of frames, or does not lift the limit", () => {
    class Lifting {
      static callsites() {
        const limit = Error.stackTraceLimit;
        Error.stackTraceLimit = Number.POSITIVE_INFINITY;
        try {
          return (new Error().stack ?? "").split("\n").slice(1);
        } finally {
          Error.stackTraceLimit = limit;
        }
      }
      static stackTrace(skip: number) {
        return Lifting.callsites().slice(skip + 1);
      }
      constructor() {
        Lifting.stackTrace(4);
      }
    }
    expect(stackTraceLimitHolds(Lifting)).toBe(true);
    expect(registrationFramesHold(Lifting)).toBe(true);
    class SkipsThree extends Lifting {
      constructor() {
        super();
        SkipsThree.stackTrace(3);
      }
    }
    expect(registrationFramesHold(SkipsThree)).toBe(false);
    class DropsSkip {
      static callsites = Lifting.callsites;
      static stackTrace(skip: number) {
        return DropsSkip.callsites().slice(skip);
      }
      constructor() {
        DropsSkip.stackTrace(4);
      }
    }
    expect(registrationFramesHold(DropsSkip)).toBe(false);
    const NotLifting = {
      callsites: () => (new Error().stack ?? "").split("\n").slice(1),
    };
    expect(stackTraceLimitHolds(NotLifting)).toBe(false);
    expect(registrationFramesHold(class {})).toBe(false);
  });

  it("fast: Pulumi's five frames kept, then the program's; Pulumi's skip then starts the trace at the program's line", () => {
    const kept = keepProgramFrames(REGISTRATION);
    expect(names(kept)).toEqual([
      "callsites",
      "stackTrace",
      "Resource",
      "CustomResource",
      "KindResource",
      "/app/index.ts",
      "main",
    ]);
    expect(names(kept.slice(5))[0]).toBe("/app/index.ts");
  });

  it("with the switch off: no fixed skip, every leading frame that is not the program's kept, then the program's", () => {
    switchOff();
    const kept = keepProgramFrames(REGISTRATION);
    expect(names(kept)).toEqual([
      "callsites",
      "stackTrace",
      "Resource",
      "CustomResource",
      "KindResource",
      "VolumeResource",
      "Volume",
      "/app/index.ts",
      "main",
    ]);
    // Whatever Pulumi drops (up to its own and this package's frames), the program's frames stay.
    for (let skip = 3; skip <= 7; skip++) expect(names(kept.slice(skip))).toContain("/app/index.ts");
    expect(framesKeptWhole(REGISTRATION, 0, () => false, "public")).toBe(REGISTRATION.length);
  });

  it("with the switch off a registration leaves the stack trace limit alone", async () => {
    switchOff();
    const { capStackTraces } = await import("../../../provider/registration/registration");
    const before = Error.stackTraceLimit;
    const capped = capStackTraces();
    expect(Error.stackTraceLimit).toBe(before);
    capped.restore();
    forgetPaths();
    vi.unstubAllEnvs();
    const fastCap = capStackTraces();
    expect(Error.stackTraceLimit).toBe(process.env.PULUMI_DEBUG_PROMISE_LEAKS ? before : 0);
    fastCap.restore();
    expect(Error.stackTraceLimit).toBe(before);
  });
});

describe("outputKnown and mockMonitor: the program's outputs and monitor", () => {
  /** An output whose value Pulumi does not know (as at preview for a resource to create). */
  const unknownOutput = () =>
    new (pulumi.Output as unknown as new (...a: unknown[]) => pulumi.Output<unknown>)(
      new Set(),
      Promise.resolve(undefined),
      Promise.resolve(false),
      Promise.resolve(false),
      Promise.resolve(new Set()),
    );

  it("the probes hold on the installed SDK", async () => {
    expect(await outputKnownHolds()).toBe(true);
    expect(mockMonitorHolds()).toBe(true);
  });

  it("the public path tells a known output from an unknown one as the private isKnown does", async () => {
    await pulumi.runtime.setMocks(
      { newResource: (a) => ({ id: `${a.name}_id`, state: a.inputs }), call: (a) => a.inputs },
      "project",
      "stack",
      true,
    );
    class Thing extends pulumi.CustomResource {}
    const resource = new Thing("test:index:Thing", "t", { size: 1 });
    const cases: [pulumi.Output<unknown>, boolean][] = [
      [resource.urn, true],
      [pulumi.output("known"), true],
      [unknownOutput(), false],
      [pulumi.output(pulumi.unknown), false],
    ];
    for (const [output, known] of cases) {
      expect(await outputKnown(output, resource, "fast")).toBe(known);
      expect(await outputKnown(output, resource, "public")).toBe(known);
    }
  });

  it("fast: the mocks' monitor is not the engine's; public: only a gRPC client is", () => {
    const { MockMonitor } = fromPulumi("./runtime/mocks");
    const { ResourceMonitorClient } = fromPulumi("./proto/resource_grpc_pb");
    const grpc = fromPulumi("@grpc/grpc-js");
    const mock = new MockMonitor({});
    const engine = new ResourceMonitorClient("127.0.0.1:1", grpc.credentials.createInsecure());
    try {
      for (const path of ["fast", "public"] as const) {
        expect(engineMonitor(mock, path)).toBe(false);
        expect(engineMonitor(engine, path)).toBe(true);
        expect(engineMonitor(undefined, path)).toBe(false);
      }
      expect(engineMonitor({ registerResource() {} }, "public")).toBe(false);
    } finally {
      engine.close();
    }
  });

  it("with the switch off the token gate still stays shut under the mocks", async () => {
    switchOff();
    await pulumi.runtime.setMocks(
      { newResource: (a) => ({ id: "x", state: a.inputs }), call: () => ({}) },
      "p",
      "s",
      false,
    );
    expect(pulumi.runtime.isDryRun()).toBe(false);
    expect(engineSources()).toBeUndefined();
  });
});

describe("dynamicHostArgs, pluginArgs and hostLog: the processes Pulumi starts", () => {
  const HOST = "/p/node_modules/@pulumi/pulumi/cmd/dynamic-provider/index.js";

  it("Pulumi's own rules for a provider's arguments: its flags left out, the first argument left", () => {
    expect(pulumiProviderArgs(["--logtostderr", "-v=9", "--tracing", "127.0.0.1:9", "127.0.0.1:5"])).toBe(
      "127.0.0.1:5",
    );
    expect(pulumiProviderArgs([])).toBeUndefined();
  });

  it("the dynamic host: its first argument on the fast path; an argument elsewhere takes the public path", () => {
    expect(dynamicHostArgsPath(["node", HOST, "127.0.0.1:40123"])).toBe("fast");
    expect(dynamicHostEngine(["node", HOST, "127.0.0.1:40123"])).toEqual({ host: "127.0.0.1", port: 40123 });
    const flagged = ["node", HOST, "--logtostderr", "127.0.0.1:40123"];
    expect(dynamicHostArgsPath(flagged)).toBe("public");
    expect(dynamicHostEngine(flagged)).toEqual({ host: "127.0.0.1", port: 40123 });
    expect(dynamicHostEngine(["node", "/p/bin/pulumi-resource-platform", "127.0.0.1:1"])).toBeUndefined();
    switchOff();
    expect(dynamicHostArgsPath(["node", HOST, "127.0.0.1:40123"])).toBe("public");
    expect(dynamicHostEngine(["node", HOST, "127.0.0.1:40123"])).toEqual({ host: "127.0.0.1", port: 40123 });
  });

  it("the plugin: the last argument that is not a flag; Pulumi's rules when that is no address, or with the switch off", () => {
    const cli = ["--logtostderr", "-v=9", "--tracing", "file:///t.json", "127.0.0.1:40123"];
    expect(pluginArgsPath(cli)).toBe("fast");
    expect(pluginEngineAddress(cli)).toBe("127.0.0.1:40123");
    const addressFirst = ["127.0.0.1:40123", "--tracing", "file:///t.json"];
    expect(pluginArgsPath(addressFirst)).toBe("public");
    expect(pluginEngineAddress(addressFirst)).toBe("127.0.0.1:40123");
    expect(pluginEngineAddress([])).toBeUndefined();
    switchOff();
    expect(pluginArgsPath(cli)).toBe("public");
    expect(pluginEngineAddress(cli)).toBe("127.0.0.1:40123");
  });

  it("the host's warning goes to pulumi.log.warn either way", async () => {
    const log = await import("@pulumi/pulumi/log");
    const warn = vi.spyOn(log, "warn").mockResolvedValue(undefined);
    try {
      await hostWarn("fast one");
      switchOff();
      await hostWarn("public one");
      expect(warn.mock.calls.map((c) => c[0])).toEqual(["fast one", "public one"]);
    } finally {
      warn.mockRestore();
    }
  });
});

describe("the paths in a registration", () => {
  it("are decided before the registration's trace hook runs (inside it the probe could take no trace)", async () => {
    forgetPaths();
    await pulumi.runtime.setMocks(
      { newResource: (a) => ({ id: "x", state: a.inputs }), call: () => ({}) },
      "p",
      "s",
      true,
    );
    const { Volume } = await import("../../../provider/dynamic/classes");
    const volume = new Volume("v", { app: "demo-app", name: "data", sizeGb: 1 });
    await new Promise((resolve) => volume.urn.apply(resolve));
    expect(await programPaths()).toMatchObject({ stackTraceLimit: "fast", registrationFrames: "fast" });
  });
});
