// @ts-check
// The provider plugin in one file: `dist/provider/plugin/bundle.js`, bundled with esbuild from the
// compiled modules (dist/, so it is the very code `tsc` emitted, module by module: each module still
// runs when it is first required, as under Node's own loader), and `bundle.json` beside it, which
// dist/provider/plugin/main.js checks before it runs the bundle (provider/plugin/bundle-check.ts).
// Run by `npm run build` and `npm install` (scripts/prepare.js) after `tsc`; the bundle is shipped in
// the package's dist/. Without esbuild (installed as a dependency) it does nothing: the plugin then
// starts from the modules, as it does when the bundle is stale.
//
// What it changes at load, never in behaviour:
// - grpc-js, google-protobuf and the protos are the files `@pulumi/pulumi`'s directory resolves
//   (provider/plugin/wire.ts names them), required statically;
// - undici loads at the first use of `Agent` or `Client` (the first request), and then only the
//   dispatchers and their request API (about half of undici's load); any other export loads it all;
// - `@pulumi/pulumi` itself stays outside (only a lookup without credentials requires it).
const fs = require("node:fs");
const path = require("node:path");
const { createRequire } = require("node:module");

const root = path.resolve(__dirname, "..");
const pluginDir = path.join(root, "dist", "provider", "plugin");
const BUNDLE = "bundle.js";
const MANIFEST = "bundle.json";

/** @returns {typeof import("esbuild") | undefined} */
function loadEsbuild() {
  try {
    return require("esbuild");
  } catch {
    return undefined;
  }
}

async function main() {
  // The plugin's bin (what node_modules/.bin/pulumi-resource-platform links to): tsc writes it
  // without the execute bit, and a rebuild after `rm -rf dist` must still leave a plugin the CLI runs.
  fs.chmodSync(path.join(pluginDir, "main.js"), 0o755);
  const esbuild = loadEsbuild();
  // Stale files from an earlier build must never outlive the modules they were made from.
  for (const f of [BUNDLE, MANIFEST]) fs.rmSync(path.join(pluginDir, f), { force: true });
  if (!esbuild) {
    console.error("build-plugin: esbuild is not installed; the plugin starts from its modules");
    return;
  }
  const entry = path.join(pluginDir, "start.js");
  if (!fs.existsSync(entry)) throw new Error(`build-plugin: ${entry} is missing: run tsc first`);

  const fromPulumi = createRequire(require.resolve("@pulumi/pulumi/package.json", { paths: [root] }));
  const { PULUMI_MODULES } = require(path.join(pluginDir, "wire.js"));
  const wireFile = path.join(pluginDir, "wire.js");
  const undiciDir = path.dirname(require.resolve("undici/package.json", { paths: [root] }));
  const undiciExports = Object.keys(require(undiciDir));
  const LAZY_SUBSET = ["Agent", "Client", "Dispatcher"];

  /** @type {import("esbuild").Plugin} */
  const plugin = {
    name: "pulumi-platform-plugin",
    setup(build) {
      // wire.js: the same files, required statically (so they are bundled).
      build.onLoad({ filter: /[\\/]provider[\\/]plugin[\\/]wire\.js$/ }, (args) => {
        if (args.path !== wireFile) return undefined;
        const cases = PULUMI_MODULES.map(
          (/** @type {string} */ name) =>
            `    case ${JSON.stringify(name)}: return require(${JSON.stringify(fromPulumi.resolve(name))});`,
        ).join("\n");
        return {
          loader: "js",
          resolveDir: path.dirname(wireFile),
          contents: `"use strict";
exports.PULUMI_MODULES = ${JSON.stringify(PULUMI_MODULES)};
exports.fromPulumi = function fromPulumi(name) {
  switch (name) {
${cases}
  }
  throw new Error("not a wire module of the plugin: " + name);
};
`,
        };
      });
      // zod's locales index (`z.locales`, 60-odd languages run at load; zod itself requires only
      // `en`): each locale is required by its getter, at first use, instead of all at load.
      build.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.cjs$/ }, (args) => {
        const source = fs.readFileSync(args.path, "utf8");
        /** @type {Map<string, string>} */
        const requires = new Map();
        let contents = source.replace(/^var (\w+) = (require\("\.\/[\w-]+\.cjs"\));\n/gm, (_, name, call) => {
          requires.set(name, call);
          return "";
        });
        // Only `en` is used (zod requires it itself); the others stay outside the bundle, in zod's
        // own files, required by their getter if a program ever asks for one.
        for (const [name, call] of requires) {
          const outside = call.replace(/^require\("\.\/([\w-]+\.cjs)"\)$/, (whole, file) =>
            file === "en.cjs" ? whole : `require("zod/v4/locales/${file}")`,
          );
          contents = contents.split(`__importDefault(${name})`).join(`__importDefault(${outside})`);
        }
        // zod 4.6 ends the file with a "seal" that calls every getter (so loads every locale) and
        // freezes the exports: without it the getters stay lazy and `z.locales` stays writable.
        const seal = contents.indexOf("\n// seal-cjs-exports\n");
        if (seal !== -1) {
          const tail = contents.slice(seal);
          if (!tail.includes("Object.freeze(exports);") || !tail.trimEnd().endsWith("})();"))
            return undefined;
          contents = `${contents.slice(0, seal)}\n`;
        }
        // Another layout than the one this was written for: leave the file as it is.
        if (requires.size === 0 || [...requires.keys()].some((name) => contents.includes(name)))
          return undefined;
        return { loader: "js", contents, resolveDir: path.dirname(args.path) };
      });
      // zod's other locales (above) and grpc-js's proto loader (required only by channelz and ORCA,
      // which the plugin does not serve): left to Node's loader.
      build.onResolve({ filter: /^(zod\/v4\/locales\/[\w-]+\.cjs|@grpc\/proto-loader)$/ }, (args) => ({
        path: args.path,
        external: true,
      }));
      // undici: loaded at first use, the dispatchers only unless more is asked for.
      build.onResolve({ filter: /^undici$/ }, (args) =>
        args.namespace === "file" && !args.importer.startsWith(undiciDir)
          ? { path: "undici-lazy", namespace: "pulumi-platform" }
          : undefined,
      );
      build.onLoad({ filter: /^undici-lazy$/, namespace: "pulumi-platform" }, () => {
        const abs = (/** @type {string} */ f) => JSON.stringify(path.join(undiciDir, f));
        const getters = undiciExports.map((name) =>
          LAZY_SUBSET.includes(name)
            ? `  get ${name}() { return dispatchers().${name}; },`
            : `  get ${name}() { return all().${name}; },`,
        );
        return {
          loader: "js",
          resolveDir: undiciDir,
          contents: `"use strict";
let subset, full;
// As undici's index.js does: the request API on every dispatcher.
function dispatchers() {
  if (!subset) {
    const Dispatcher = require(${abs("lib/dispatcher/dispatcher.js")});
    Object.assign(Dispatcher.prototype, require(${abs("lib/api/index.js")}));
    subset = { Dispatcher, Agent: require(${abs("lib/dispatcher/agent.js")}), Client: require(${abs("lib/dispatcher/client.js")}) };
  }
  return subset;
}
function all() { return (full ??= require(${abs("index.js")})); }
module.exports = {
${getters.join("\n")}
};
`,
        };
      });
    },
  };

  const result = await esbuild.build({
    entryPoints: [entry],
    outfile: path.join(pluginDir, BUNDLE),
    bundle: true,
    platform: "node",
    format: "cjs",
    target: `node${process.versions.node.split(".")[0]}`,
    external: ["@pulumi/pulumi"],
    logLevel: "warning",
    metafile: true,
    legalComments: "none",
    // Smaller to read and parse at every start; identifiers are not renamed (`.name`s, stack traces).
    minifyWhitespace: true,
    minifySyntax: true,
    plugins: [plugin],
  });

  // The bin runs the bundle as a vm.Script (provider/plugin/bundle-load.ts), where `import()` fails.
  if (/[^\w$.]import\(/.test(fs.readFileSync(path.join(pluginDir, BUNDLE), "utf8"))) {
    fs.rmSync(path.join(pluginDir, BUNDLE), { force: true });
    throw new Error("build-plugin: the bundle has a dynamic import(), which the plugin's bin cannot run");
  }

  // Every compiled module of this package in the bundle, for main.js's check.
  const inputs = Object.keys(result.metafile.inputs)
    .map((p) => path.resolve(root, p))
    .filter((p) => p.startsWith(path.join(root, "dist") + path.sep))
    .sort()
    .map((p) => [path.relative(pluginDir, p), fs.statSync(p).size]);
  const manifest = { node: process.versions.modules, bundle: BUNDLE, inputs };
  fs.writeFileSync(path.join(pluginDir, MANIFEST), `${JSON.stringify(manifest)}\n`);
  const size = fs.statSync(path.join(pluginDir, BUNDLE)).size;
  console.error(
    `build-plugin: ${BUNDLE} (${(size / 1024).toFixed(0)} KiB, ${inputs.length} modules of this package)`,
  );
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
});
