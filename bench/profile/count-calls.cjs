// Preloaded (`node --require`) into every Node process the Pulumi CLI spawns when
// bench/engine.mjs runs with --profile: counts the dynamic provider's gRPC calls by method and
// the calls into pulumi-platform/provider/runtime by resource and method, and writes them to
// `${BENCH_COUNT_CALLS_FILE}.${pid}` (the provider host may be killed, so written as it goes).
const fs = require("node:fs");
const Module = require("node:module");

const file = process.env.BENCH_COUNT_CALLS_FILE;
if (file) {
  const counts = {};
  let dirty = false;
  const bump = (key) => {
    counts[key] = (counts[key] ?? 0) + 1;
    dirty = true;
  };
  const flush = () => {
    if (!dirty) return;
    dirty = false;
    fs.writeFileSync(`${file}.${process.pid}`, JSON.stringify({ argv: process.argv.slice(1, 3), counts }));
  };
  setInterval(flush, 100).unref();
  process.on("exit", flush);
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
    process.on(signal, () => {
      bump(`signal.${signal}`);
      flush();
      process.exit(0);
    });
  }

  const wrapped = new WeakSet();
  const originalLoad = Module._load;
  Module._load = function load(request, ...rest) {
    const exports = originalLoad.call(this, request, ...rest);
    if (request === "@grpc/grpc-js" && exports?.Server && !wrapped.has(exports.Server)) {
      wrapped.add(exports.Server);
      const addService = exports.Server.prototype.addService;
      exports.Server.prototype.addService = function (service, impl) {
        const counted = Object.create(impl);
        for (const name of Object.keys(service)) {
          const key = service[name].originalName ?? name;
          const fn = impl[key] ?? impl[name];
          if (typeof fn !== "function") continue;
          counted[key] = (...args) => {
            bump(`rpc.${key}`);
            return fn.apply(impl, args);
          };
        }
        return addService.call(this, service, counted);
      };
    }
    if (
      typeof request === "string" &&
      request.endsWith("provider/runtime") &&
      exports &&
      typeof exports === "object" &&
      !wrapped.has(exports)
    ) {
      wrapped.add(exports);
      for (const [resource, methods] of Object.entries(exports)) {
        if (!methods || typeof methods !== "object") continue;
        for (const [method, fn] of Object.entries(methods)) {
          if (typeof fn !== "function") continue;
          methods[method] = function (...args) {
            bump(`runtime.${resource}.${method}`);
            return fn.apply(this, args);
          };
        }
      }
    }
    return exports;
  };
}
