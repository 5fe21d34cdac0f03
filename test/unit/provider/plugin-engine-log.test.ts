import { createRequire } from "node:module";
import type * as grpcTypes from "@grpc/grpc-js";
import type * as engineRpcTypes from "@pulumi/pulumi/proto/engine_grpc_pb";
import type * as engineTypes from "@pulumi/pulumi/proto/engine_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { aboutResource, engineAddress, logWarningsToEngine } from "../../../provider/plugin/engine-log";
import { sendCallWarnings, warn, warnDuringCall } from "../../../provider/runtime/warnings";

const fromPulumi = createRequire(require.resolve("@pulumi/pulumi/package.json"));
const grpc = fromPulumi("@grpc/grpc-js") as typeof grpcTypes;
const rpc = fromPulumi("./proto/engine_grpc_pb") as typeof engineRpcTypes;
const proto = fromPulumi("./proto/engine_pb") as typeof engineTypes;
const empty = fromPulumi("google-protobuf/google/protobuf/empty_pb");

describe("the plugin's arguments", () => {
  it("the engine's address is the last one that is not a flag", () => {
    expect(engineAddress(["127.0.0.1:40123"])).toBe("127.0.0.1:40123");
    expect(engineAddress(["--logtostderr", "-v=9", "--tracing", "file:///t.json", "127.0.0.1:40123"])).toBe(
      "127.0.0.1:40123",
    );
    expect(engineAddress([])).toBeUndefined();
  });
});

describe("the runtime's warnings in the plugin go to the engine's Log", () => {
  const received: { severity: number; message: string; urn: string }[] = [];
  const server = new grpc.Server();
  const stderr: string[] = [];

  beforeAll(async () => {
    server.addService(rpc.EngineService, {
      log: (
        call: grpcTypes.ServerUnaryCall<engineTypes.LogRequest, unknown>,
        done: grpcTypes.sendUnaryData<unknown>,
      ) => {
        received.push({
          severity: call.request.getSeverity(),
          message: call.request.getMessage(),
          urn: call.request.getUrn(),
        });
        done(null, new empty.Empty());
      },
    } as unknown as engineRpcTypes.IEngineServer);
    const port = await new Promise<number>((resolve, reject) =>
      server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, p) =>
        err ? reject(err) : resolve(p),
      ),
    );
    logWarningsToEngine([`127.0.0.1:${port}`]);
  });
  afterAll(() => server.forceShutdown());

  it("as a warning of the resource the call was about; the dynamic host's way is not taken", async () => {
    received.length = 0;
    const urn = "urn:pulumi:dev::p::platform:index:Volume::data";
    await warn('volume "data" was created twice', (m) => stderr.push(m), aboutResource(urn));
    await warn("outside any resource call", (m) => stderr.push(m));
    expect(received).toEqual([
      { severity: proto.LogSeverity.WARNING, message: 'volume "data" was created twice', urn },
      { severity: proto.LogSeverity.WARNING, message: "outside any resource call", urn: "" },
    ]);
    expect(stderr).toEqual([]);
  });

  it("a warning raised where the call is not known (the token source) goes out as the call ends, under its resource", async () => {
    received.length = 0;
    const urn = "urn:pulumi:dev::p::platform:index:Volume::logs";
    warnDuringCall("the recorded token was refused", (m) => stderr.push(m));
    expect(received).toEqual([]);
    await sendCallWarnings(aboutResource(urn));
    await sendCallWarnings(aboutResource(urn));
    expect(received).toEqual([
      { severity: proto.LogSeverity.WARNING, message: "the recorded token was refused", urn },
    ]);
    expect(stderr).toEqual([]);
  });
});
