// The provider plugin's message work per resource call, in one process: a Volume's `read` (the
// request's recorded outputs and inputs in, its outputs and inputs out) and `check`, handled the
// way the plugin does it (provider/plugin/plain-messages.ts: google-protobuf's reader and writer
// straight to and from plain objects) next to the generated classes it used before (a message
// object per property value, then `toJavaScript` / `fromJavaScript`). CPU microseconds per call,
// medians of rounds that alternate between the two; the same bytes either way (the unit test
// test/unit/provider/plugin-plain-messages.test.ts holds that).
// Run `npx tsc -p tsconfig.json` first; then `node bench/plugin-messages.mjs [calls per round] [rounds]`.
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);
const { requestDecoder, responseEncoders } = require(join(root, "dist/provider/plugin/plain-messages.js"));
const fromPulumi = createRequire(require.resolve("@pulumi/pulumi/package.json"));
const { Struct } = fromPulumi("google-protobuf/google/protobuf/struct_pb");
const proto = fromPulumi("./proto/provider_pb");

const CALLS = Number(process.argv[2] ?? 2000);
const ROUNDS = Number(process.argv[3] ?? 9);

// A Volume's recorded outputs as the plugin keeps them (22 keys, with the dynamic door's provider text).
const outputs = {
  app: "bench-app",
  name: "data-17",
  region: "ord",
  sizeGb: 10,
  encrypted: true,
  fstype: "ext4",
  snapshotRetention: 5,
  autoBackupEnabled: true,
  requireUniqueZone: false,
  volumeId: "vol_4f2a9c1e7b3d5a60",
  state: "created",
  attachedMachineId: null,
  zone: "a1b2",
  createdAt: "2026-11-27T05:00:00.000Z",
  blocks: 163840,
  blockSize: 4096,
  needsRestart: false,
  programInputs: ["app", "name", "region", "sizeGb", "encrypted"],
  programSizeGb: 10,
  hostDedicationId: null,
  snapshotId: null,
  __provider: `exports.handler = function(){var p={},k="volume",r;try{r=require("pulumi-platform/provider/runtime")}catch(e){throw e}return p}; /* ${"x".repeat(250)} */`,
};
const inputs = { app: "bench-app", name: "data-17", region: "ord", sizeGb: 10, encrypted: true };
const urn = "urn:pulumi:bench::bench::platform:index:Volume::data-17";

const readBytes = Buffer.from(
  new proto.ReadRequest()
    .setId(outputs.volumeId)
    .setUrn(urn)
    .setProperties(Struct.fromJavaScript(outputs))
    .setInputs(Struct.fromJavaScript(inputs))
    .serializeBinary(),
);
const checkBytes = Buffer.from(
  new proto.CheckRequest()
    .setUrn(urn)
    .setOlds(Struct.fromJavaScript(inputs))
    .setNews(Struct.fromJavaScript(inputs))
    .serializeBinary(),
);

const generated = {
  read() {
    const req = proto.ReadRequest.deserializeBinary(readBytes);
    const props = req.getProperties()?.toJavaScript() ?? {};
    const ins = req.getInputs()?.toJavaScript() ?? {};
    const resp = new proto.ReadResponse()
      .setId(req.getId())
      .setProperties(Struct.fromJavaScript(props))
      .setInputs(Struct.fromJavaScript(ins));
    return resp.serializeBinary();
  },
  check() {
    const req = proto.CheckRequest.deserializeBinary(checkBytes);
    const news = req.getNews()?.toJavaScript() ?? {};
    req.getOlds()?.toJavaScript();
    return new proto.CheckResponse().setInputs(Struct.fromJavaScript(news)).serializeBinary();
  },
};
const decodeRead = requestDecoder("read");
const decodeCheck = requestDecoder("check");
const plain = {
  read() {
    const req = decodeRead(readBytes);
    return responseEncoders.read({ id: req.id, properties: req.properties, inputs: req.inputs });
  },
  check() {
    const req = decodeCheck(checkBytes);
    return responseEncoders.check({ inputs: req.news, failures: [] });
  },
};

/** CPU microseconds per call of `fn` over CALLS calls. */
function perCall(fn) {
  const start = process.cpuUsage();
  for (let i = 0; i < CALLS; i++) fn();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / CALLS;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const results = { generated: { read: [], check: [] }, plain: { read: [], check: [] } };
// Warm both paths (the first calls compile), then alternate.
for (const way of [generated, plain])
  for (let i = 0; i < 200; i++) {
    way.read();
    way.check();
  }
for (let round = 0; round < ROUNDS; round++) {
  const order = round % 2 === 0 ? ["generated", "plain"] : ["plain", "generated"];
  for (const name of order)
    for (const call of ["read", "check"])
      results[name][call].push(perCall(name === "plain" ? plain[call] : generated[call]));
}

console.log(`Plugin message work per call (CPU µs, median of ${ROUNDS} rounds of ${CALLS} calls):`);
console.log("| call | generated classes | plain (plugin) | plain/generated |");
console.log("|---|---|---|---|");
for (const call of ["read", "check"]) {
  const g = median(results.generated[call]);
  const p = median(results.plain[call]);
  console.log(`| ${call} | ${g.toFixed(1)} | ${p.toFixed(1)} | ${(p / g).toFixed(2)} |`);
}
