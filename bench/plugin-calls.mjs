// CPU per call of the provider plugin's process, next to the native control's: the engine's calls
// made back to back on one connection (getPluginInfo, and a Volume's check, diff and read against the
// emulator), each process's CPU read from /proc before and after; getPluginInfo also 100 calls at a
// time. Two floors answer getPluginInfo beside them: a server on Node's `http2` with no gRPC library
// (the least any Node plugin pays per call) and an empty grpc-js service (what the library adds).
// Rounds alternate the kinds; medians with their range. Run `npx tsc -p tsconfig.json` first; the
// native control is the one the engine bench builds (`npm run bench -- engine` once) or the binary
// given: `node bench/plugin-calls.mjs [calls] [rounds] [native]`. Linux only (/proc).
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { cpuMs, fromPulumi, nativeControl, pluginBin } from "./lib/plugin-process.mjs";

const root = join(import.meta.dirname, "..");
const grpc = fromPulumi("@grpc/grpc-js");
const { ResourceProviderClient } = fromPulumi("./proto/provider_grpc_pb");
const P = fromPulumi("./proto/provider_pb");
const { Struct } = fromPulumi("google-protobuf/google/protobuf/struct_pb");
const { Empty } = fromPulumi("google-protobuf/google/protobuf/empty_pb");

const CALLS = Number(process.argv[2] ?? 1000);
const ROUNDS = Number(process.argv[3] ?? 3);
const plugin = pluginBin();

const call = (client, method, request) =>
  new Promise((resolve, reject) => client[method](request, (err, res) => (err ? reject(err) : resolve(res))));

// The floors: getPluginInfo answered with an empty PluginInfo (no bytes), nothing else served.
const PATH = "/pulumirpc.ResourceProvider/GetPluginInfo";
const HTTP2_FLOOR = `
const http2 = require("node:http2");
const server = http2.createServer();
server.on("stream", (stream) => {
  stream.on("data", () => {});
  stream.on("end", () => {
    stream.respond({ ":status": 200, "content-type": "application/grpc" }, { waitForTrailers: true });
    stream.on("wantTrailers", () => stream.sendTrailers({ "grpc-status": "0" }));
    stream.end(Buffer.alloc(5));
  });
});
server.listen(0, "127.0.0.1", () => console.log(server.address().port));`;
const GRPC_FLOOR = `
const grpc = require(${JSON.stringify(fromPulumi.resolve("@grpc/grpc-js"))});
const same = (b) => b;
const server = new grpc.Server({ "grpc.enable_channelz": 0 });
server.addService(
  { GetPluginInfo: { path: ${JSON.stringify(PATH)}, requestStream: false, responseStream: false,
    requestSerialize: same, requestDeserialize: same, responseSerialize: same, responseDeserialize: same } },
  { GetPluginInfo: (_call, callback) => callback(null, Buffer.alloc(0)) },
);
server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, port) => console.log(port));`;

const emulator = spawn(
  process.execPath,
  [
    join(root, "dist", "emulator", "cli.js"),
    "--port",
    "0",
    "--quiet",
    "--task-socket",
    join(mkdtempSync(join(tmpdir(), "plugin-calls-")), "api.sock"),
  ],
  { stdio: ["ignore", "pipe", "inherit"] },
);
const platform = await new Promise((resolve) =>
  createInterface({ input: emulator.stdout }).once("line", (line) => resolve(JSON.parse(line))),
);

/** Per-call CPU µs of one start of `command`: getPluginInfo, then (a provider) check, diff, read. */
async function measure(command, pkg, round) {
  const child = spawn(command[0], command.slice(1), { stdio: ["ignore", "pipe", "ignore"] });
  const port = await new Promise((resolve) => createInterface({ input: child.stdout }).once("line", resolve));
  const client = new ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  const rows = {};
  const loop = async (name, method, request) => {
    for (let i = 0; i < 50; i++) await call(client, method, request());
    const before = cpuMs(child.pid);
    for (let i = 0; i < CALLS; i++) await call(client, method, request());
    rows[name] = ((cpuMs(child.pid) - before) / CALLS) * 1000;
  };
  try {
    await loop("getPluginInfo", "getPluginInfo", () => new Empty());
    // The same calls 100 at a time, as the engine makes them for many resources: what a call costs
    // once the event loop's turn around it is shared.
    const before = cpuMs(child.pid);
    for (let i = 0; i < CALLS; i += 100)
      await Promise.all(Array.from({ length: 100 }, () => call(client, "getPluginInfo", new Empty())));
    rows["getPluginInfo, 100 at a time"] = ((cpuMs(child.pid) - before) / CALLS) * 1000;
    if (!pkg) return rows;
    const configure = new P.ConfigureRequest().setAcceptsecrets(true);
    configure.setArgs(Struct.fromJavaScript({ apiUrl: platform.url, apiToken: platform.token }));
    await call(client, "configure", configure);
    const urn = `urn:pulumi:bench::bench::${pkg}:index:Volume::v`;
    const news = { app: "demo-app", name: `calls-${pkg}-${round}-${process.pid}`, region: "ord", sizeGb: 1 };
    const check = () => {
      const req = new P.CheckRequest().setUrn(urn).setNews(Struct.fromJavaScript(news));
      return req.setOlds(Struct.fromJavaScript({}));
    };
    const inputs = (await call(client, "check", check())).getInputs();
    const created = await call(client, "create", new P.CreateRequest().setUrn(urn).setProperties(inputs));
    const [id, outs] = [created.getId(), created.getProperties()];
    await loop("check", "check", check);
    await loop("diff", "diff", () =>
      new P.DiffRequest().setUrn(urn).setId(id).setOlds(outs).setNews(inputs).setOldInputs(inputs),
    );
    await loop("read", "read", () =>
      new P.ReadRequest().setUrn(urn).setId(id).setProperties(outs).setInputs(inputs),
    );
    await call(client, "delete", new P.DeleteRequest().setUrn(urn).setId(id).setProperties(outs));
    return rows;
  } finally {
    client.close();
    child.kill();
  }
}

const kinds = [
  ["plugin", [process.execPath, plugin], "platform"],
  ["node:http2 alone (floor)", [process.execPath, "-e", HTTP2_FLOOR], undefined],
  ["grpc-js, empty service", [process.execPath, "-e", GRPC_FLOOR], undefined],
];
const native = nativeControl(process.argv[4]);
if (native) kinds.splice(1, 0, ["native", [native], "platformnative"]);
else console.error("no native control built yet (`npm run bench -- engine` builds it): plugin only");

const results = new Map(kinds.map(([name]) => [name, []]));
try {
  for (let round = 0; round < ROUNDS; round++)
    for (const [name, command, pkg] of round % 2 ? [...kinds].reverse() : kinds)
      results.get(name).push(await measure(command, pkg, round));
} finally {
  emulator.kill("SIGINT");
}

const METHODS = ["getPluginInfo", "getPluginInfo, 100 at a time", "check", "diff", "read"];
const cell = (values) => {
  if (values.some((v) => v === undefined)) return "–";
  const sorted = [...values].sort((a, b) => a - b);
  return `${sorted[Math.floor(sorted.length / 2)].toFixed(0)} (${sorted[0].toFixed(0)}-${sorted.at(-1).toFixed(0)})`;
};
console.log(
  `CPU µs per call of the serving process (median (min-max) of ${ROUNDS} rounds of ${CALLS} calls):`,
);
console.log(`| kind | ${METHODS.join(" | ")} |`);
console.log(`|---|${METHODS.map(() => "---").join("|")}|`);
for (const [name, runs] of results)
  console.log(`| ${name} | ${METHODS.map((m) => cell(runs.map((r) => r[m]))).join(" | ")} |`);
