// The provider plugin's start, next to the native control's: from the process's start to its
// port line on stdout, then to the answers of the calls every resource command opens with
// (getPluginInfo, configure, then a Volume's check), as the engine makes them, back to back.
// Also the CPU the process used up to that check (all threads, from /proc). The plugin is started
// as the CLI starts it (its one-file build when usable) and from its modules (the fallback).
// Rounds alternate between the kinds, medians printed with their range (the machine is shared).
// Run `npx tsc -p tsconfig.json` first; the native control is the one the engine bench builds
// (`npm run bench -- engine` once) or the binary given: `node bench/plugin-start.mjs [rounds] [native]`.
import { spawn } from "node:child_process";
import { cpuMs, fromPulumi, nativeControl, pluginBin } from "./lib/plugin-process.mjs";

const grpc = fromPulumi("@grpc/grpc-js");
const { ResourceProviderClient } = fromPulumi("./proto/provider_grpc_pb");
const { CheckRequest, ConfigureRequest } = fromPulumi("./proto/provider_pb");
const { Struct } = fromPulumi("google-protobuf/google/protobuf/struct_pb");
const { Empty } = fromPulumi("google-protobuf/google/protobuf/empty_pb");

const ROUNDS = Number(process.argv[2] ?? 15);
const plugin = pluginBin();

/** Calls `method` with `request` and resolves when it is answered (an error answer counts too). */
const call = (client, method, request) =>
  new Promise((resolve) => client[method](request, () => resolve(undefined)));

/**
 * One start of `command` with the plugin package `pkg`: ms to the port, then to each answer, then
 * the CPU ms the process used up to the last answer.
 */
async function start(command, pkg, env) {
  const t0 = performance.now();
  const child = spawn(command[0], command.slice(1), {
    stdio: ["ignore", "pipe", "ignore"],
    env: { ...process.env, ...env },
  });
  const port = await new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      const line = /^(\d+)\n/.exec(out);
      if (line) resolve(line[1]);
    });
    child.once("exit", (code) => reject(new Error(`${command.join(" ")} exited with ${code}`)));
  });
  const marks = [performance.now() - t0];
  const client = new ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  await call(client, "getPluginInfo", new Empty());
  marks.push(performance.now() - t0);
  const configure = new ConfigureRequest().setAcceptsecrets(true);
  configure.setArgs(Struct.fromJavaScript({ apiUrl: "http://127.0.0.1:9", apiToken: "bench-token" }));
  await call(client, "configure", configure);
  marks.push(performance.now() - t0);
  const check = new CheckRequest().setUrn(`urn:pulumi:bench::bench::${pkg}:index:Volume::v0`);
  check.setOlds(Struct.fromJavaScript({}));
  check.setNews(Struct.fromJavaScript({ app: "demo-app", name: "v0", region: "ord", sizeGb: 1 }));
  await call(client, "check", check);
  marks.push(performance.now() - t0);
  marks.push(cpuMs(child.pid));
  client.close();
  child.removeAllListeners("exit");
  child.kill();
  return marks;
}

// The plugin as the CLI starts it (its one-file build when usable, dist/provider/plugin/bundle.js),
// and from its modules (the fallback, PULUMI_PLATFORM_PLUGIN_BUNDLE=0).
const kinds = [
  ["plugin", [process.execPath, plugin], "platform", {}],
  ["plugin (modules)", [process.execPath, plugin], "platform", { PULUMI_PLATFORM_PLUGIN_BUNDLE: "0" }],
];
const native = nativeControl(process.argv[3]);
if (native) kinds.push(["native", [native], "platformnative", {}]);
else console.error("no native control built yet (`npm run bench -- engine` builds it): plugin only");

const results = new Map(kinds.map(([name]) => [name, []]));
for (let round = 0; round < ROUNDS; round++)
  for (const [name, command, pkg, env] of round % 2 ? [...kinds].reverse() : kinds)
    results.get(name)?.push(await start(command, pkg, env));

const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
const cell = (values) =>
  `${median(values).toFixed(0)} (${Math.min(...values).toFixed(0)}-${Math.max(...values).toFixed(0)})`;
console.log(`Start of the provider plugin (ms from spawn; median (min-max) of ${ROUNDS} rounds):`);
console.log("| kind | port line | getPluginInfo | configure | check | CPU ms to check |");
console.log("|---|---|---|---|---|---|");
for (const [name, runs] of results)
  console.log(`| ${name} | ${[0, 1, 2, 3, 4].map((i) => cell(runs.map((r) => r[i]))).join(" | ")} |`);
