import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type BundleManifest, MANIFEST, usableBundle } from "../../../provider/plugin/bundle-check";

// `pulumi-resource-platform` runs the plugin's one-file build (scripts/build-plugin.js, made by
// `npm run build` and `npm install`) when it was built from the modules beside it, and the modules
// otherwise: the same service either way.

const PLUGIN_DIR = path.resolve(__dirname, "../../../dist/provider/plugin");
const MAIN = path.join(PLUGIN_DIR, "main.js");

const fromPulumi = createRequire(require.resolve("@pulumi/pulumi/package.json"));
const grpc = fromPulumi("@grpc/grpc-js");
const { ResourceProviderClient } = fromPulumi("./proto/provider_grpc_pb");
const { CheckRequest, ConfigureRequest, GetSchemaRequest } = fromPulumi("./proto/provider_pb");
const { Struct } = fromPulumi("google-protobuf/google/protobuf/struct_pb");
const { Empty } = fromPulumi("google-protobuf/google/protobuf/empty_pb");

const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill("SIGKILL");
});

/** The plugin started with `args`, and a client of its service on the port it prints. */
async function started(args: string[], env: NodeJS.ProcessEnv = {}) {
  const child = spawn(process.execPath, args, {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...env },
  });
  children.push(child);
  let stderr = "";
  child.stderr?.on("data", (d) => {
    stderr += d;
  });
  const port = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (d) => {
      out += d;
      const line = /^(\d+)\n/.exec(out);
      if (line?.[1]) resolve(line[1]);
    });
    child.once("exit", (code) => reject(new Error(`the plugin exited with ${code}: ${stderr}`)));
  });
  const client = new ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  const call = <T>(method: string, request: unknown) =>
    new Promise<T>((resolve, reject) =>
      client[method](request, (err: Error | null, res: T) => (err ? reject(err) : resolve(res))),
    );
  return { child, call, close: () => client.close() };
}

/** What a command's first calls answer: the version, the schema, a Volume's check (one bad input). */
async function firstAnswers(args: string[], env: NodeJS.ProcessEnv = {}) {
  const plugin = await started(args, env);
  try {
    const info = await plugin.call<{ getVersion(): string }>("getPluginInfo", new Empty());
    const schema = await plugin.call<{ getSchema(): string }>("getSchema", new GetSchemaRequest());
    const configure = new ConfigureRequest().setAcceptsecrets(true);
    configure.setArgs(Struct.fromJavaScript({ apiUrl: "http://127.0.0.1:9", apiToken: "test-token" }));
    await plugin.call("configure", configure);
    const check = new CheckRequest().setUrn("urn:pulumi:test::test::platform:index:Volume::v0");
    check.setOlds(Struct.fromJavaScript({}));
    check.setNews(Struct.fromJavaScript({ app: "demo-app", name: "v0", region: "ord", sizeGb: 0 }));
    const checked = await plugin.call<{
      getInputs(): { toJavaScript(): unknown };
      getFailuresList(): { getProperty(): string; getReason(): string }[];
    }>("check", check);
    return {
      version: info.getVersion(),
      schema: JSON.parse(schema.getSchema()),
      inputs: checked.getInputs().toJavaScript(),
      failures: checked.getFailuresList().map((f) => [f.getProperty(), f.getReason()]),
    };
  } finally {
    plugin.close();
    plugin.child.kill("SIGKILL");
  }
}

/** The bundle's code cache files in `compileCache` (Node keeps its own in a versioned directory there). */
const codeCacheFiles = (compileCache: string) =>
  fs
    .readdirSync(compileCache, { recursive: true, encoding: "utf8" })
    .filter((f) => path.basename(path.dirname(f)) === "pulumi-platform-plugin")
    .map((f) => path.join(compileCache, f))
    .sort();

describe("the plugin's one-file build", () => {
  it("is built by `npm run build` and current: the bin uses it", () => {
    expect(usableBundle(PLUGIN_DIR)).toBe(path.join(PLUGIN_DIR, "bundle.js"));
  });

  it("serves the engine as the modules do", async () => {
    const viaBundle = await firstAnswers([MAIN]);
    const viaModules = await firstAnswers([MAIN], { PULUMI_PLATFORM_PLUGIN_BUNDLE: "0" });
    expect(viaBundle.failures.length).toBeGreaterThan(0);
    expect(viaBundle).toEqual(viaModules);
    // And the bundle started on its own, with no module of the package beside it loaded first.
    const bundleAlone = await firstAnswers([
      "-e",
      `require(${JSON.stringify(path.join(PLUGIN_DIR, "bundle.js"))}).start([])`,
    ]);
    expect(bundleAlone).toEqual(viaModules);
    // With the SDK's fast paths off (provider/pulumi-sdk), through the generated classes: the same.
    const viaGenerated = await firstAnswers([MAIN], { PULUMI_PLATFORM_SDK_FAST_PATHS: "off" });
    expect(viaGenerated).toEqual(viaModules);
  }, 60_000);
});

describe("the bin's check of the bundle", () => {
  /** A plugin directory with a bundle built from two modules, as scripts/build-plugin.js writes it. */
  function pluginDir() {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "plugin-bundle-"));
    fs.writeFileSync(path.join(dir, "a.js"), "exports.a = 1;\n");
    fs.mkdirSync(path.join(dir, "sub"));
    fs.writeFileSync(path.join(dir, "sub", "b.js"), "exports.b = 2;\n");
    const past = new Date(Date.now() - 60_000);
    for (const f of ["a.js", "sub/b.js"]) fs.utimesSync(path.join(dir, f), past, past);
    fs.writeFileSync(path.join(dir, "bundle.js"), "exports.start = () => {};\n");
    const manifest: BundleManifest = {
      node: process.versions.modules,
      bundle: "bundle.js",
      inputs: [
        ["a.js", fs.statSync(path.join(dir, "a.js")).size],
        ["sub/b.js", fs.statSync(path.join(dir, "sub", "b.js")).size],
      ],
    };
    fs.writeFileSync(path.join(dir, MANIFEST), JSON.stringify(manifest));
    return dir;
  }

  it("takes a bundle built from the modules beside it", () => {
    const dir = pluginDir();
    expect(usableBundle(dir)).toBe(path.join(dir, "bundle.js"));
    // npm's tarballs give every file the same time: still current.
    const packed = new Date(499162860000);
    for (const f of ["a.js", "sub/b.js", "bundle.js"]) fs.utimesSync(path.join(dir, f), packed, packed);
    expect(usableBundle(dir)).toBe(path.join(dir, "bundle.js"));
  });

  it("falls back to the modules when the bundle is missing, stale or turned off", () => {
    const missingBundle = pluginDir();
    fs.rmSync(path.join(missingBundle, "bundle.js"));
    expect(usableBundle(missingBundle)).toBeUndefined();

    const missingManifest = pluginDir();
    fs.rmSync(path.join(missingManifest, MANIFEST));
    expect(usableBundle(missingManifest)).toBeUndefined();

    const unreadable = pluginDir();
    fs.writeFileSync(path.join(unreadable, MANIFEST), "{");
    expect(usableBundle(unreadable)).toBeUndefined();

    const missingModule = pluginDir();
    fs.rmSync(path.join(missingModule, "sub", "b.js"));
    expect(usableBundle(missingModule)).toBeUndefined();

    const otherSize = pluginDir();
    fs.writeFileSync(path.join(otherSize, "a.js"), "exports.a = 10;\n");
    const past = new Date(Date.now() - 60_000);
    fs.utimesSync(path.join(otherSize, "a.js"), past, past);
    expect(usableBundle(otherSize)).toBeUndefined();

    // Rebuilt by `tsc` since (same size, newer): the bundle may hold the older code.
    const newer = pluginDir();
    const future = new Date(Date.now() + 60_000);
    fs.utimesSync(path.join(newer, "sub", "b.js"), future, future);
    expect(usableBundle(newer)).toBeUndefined();

    const off = pluginDir();
    process.env.PULUMI_PLATFORM_PLUGIN_BUNDLE = "0";
    try {
      expect(usableBundle(off)).toBeUndefined();
    } finally {
      delete process.env.PULUMI_PLATFORM_PLUGIN_BUNDLE;
    }
  });

  it("starts from the modules when the bundle cannot be loaded", async () => {
    // A copy of the plugin's directory whose bundle passes the check but throws at load.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "plugin-broken-"));
    const dist = path.resolve(PLUGIN_DIR, "../..");
    const copy = path.join(dir, "dist");
    fs.cpSync(dist, copy, {
      recursive: true,
      filter: (src) => !src.endsWith(".map") && !src.endsWith(".d.ts"),
    });
    fs.symlinkSync(path.resolve(dist, "../node_modules"), path.join(dir, "node_modules"), "dir");
    fs.copyFileSync(path.resolve(dist, "../package.json"), path.join(dir, "package.json"));
    const copiedPlugin = path.join(copy, "provider", "plugin");
    const bundle = path.join(copiedPlugin, "bundle.js");
    const manifest = JSON.parse(fs.readFileSync(path.join(copiedPlugin, MANIFEST), "utf8")) as BundleManifest;
    const past = new Date(Date.now() - 60_000);
    for (const [file] of manifest.inputs) fs.utimesSync(path.join(copiedPlugin, file), past, past);
    fs.writeFileSync(bundle, 'throw new SyntaxError("a Node this bundle was not built for");\n');
    expect(usableBundle(copiedPlugin)).toBe(bundle);
    const compileCache = path.join(dir, "compile-cache");
    try {
      const answers = await firstAnswers([path.join(copiedPlugin, "main.js")], {
        NODE_COMPILE_CACHE: compileCache,
      });
      expect(answers.failures.length).toBeGreaterThan(0);
      // No code cache is kept of a bundle that did not load.
      expect(codeCacheFiles(compileCache)).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe("the bundle's code cache (provider/plugin/bundle-load.ts)", () => {
  const coveredStages = (cache: string) =>
    (JSON.parse(fs.readFileSync(`${cache}.json`, "utf8")) as { covers: string[] }).covers.sort();
  // A time in whole seconds, which the file system keeps exactly.
  const aMinuteAgo = () => new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000);

  it("is written by a first start in Node's compile-cache directory, used as it is by the next, extended at a stage it lacks and rewritten when damaged: the answers never change", async () => {
    const compileCache = fs.mkdtempSync(path.join(os.tmpdir(), "plugin-code-cache-"));
    const env = { NODE_COMPILE_CACHE: compileCache };
    try {
      const viaModules = await firstAnswers([MAIN], { PULUMI_PLATFORM_PLUGIN_BUNDLE: "0" });

      expect(await firstAnswers([MAIN], env)).toEqual(viaModules);
      const [cache, list, ...more] = codeCacheFiles(compileCache);
      expect(more).toEqual([]);
      if (!cache) throw new Error("the first start wrote no code cache");
      expect(list).toBe(`${cache}.json`);
      // Serving, the runtime loaded, a check answered: more than Node's own cache of the bundle holds.
      expect(coveredStages(cache)).toEqual(["check", "runtime", "serving"]);
      const written = fs.readFileSync(cache);
      expect(written.length).toBeGreaterThan(500_000);

      // Taken as it is: not rewritten.
      const past = aMinuteAgo();
      fs.utimesSync(cache, past, past);
      expect(await firstAnswers([MAIN], env)).toEqual(viaModules);
      expect(fs.statSync(cache).mtimeMs).toBe(past.getTime());

      // A cache a command without a check wrote: the next check adds what it compiled.
      fs.writeFileSync(`${cache}.json`, JSON.stringify({ covers: ["runtime", "serving"] }));
      expect(await firstAnswers([MAIN], env)).toEqual(viaModules);
      expect(fs.statSync(cache).mtimeMs).toBeGreaterThan(past.getTime());
      expect(coveredStages(cache)).toEqual(["check", "runtime", "serving"]);

      // Damaged (V8 refuses it): the start compiles as without one, and writes a good one again.
      fs.writeFileSync(cache, written.subarray(0, 1000));
      expect(await firstAnswers([MAIN], env)).toEqual(viaModules);
      expect(codeCacheFiles(compileCache)).toEqual([cache, `${cache}.json`]);
      expect(fs.readFileSync(cache).length).toBeGreaterThan(500_000);

      // Without a compile-cache directory nothing is kept.
      const off = fs.mkdtempSync(path.join(os.tmpdir(), "plugin-code-cache-off-"));
      try {
        const answers = await firstAnswers([MAIN], {
          NODE_COMPILE_CACHE: off,
          NODE_DISABLE_COMPILE_CACHE: "1",
        });
        expect(answers).toEqual(viaModules);
        expect(codeCacheFiles(off)).toEqual([]);
      } finally {
        fs.rmSync(off, { recursive: true, force: true });
      }
    } finally {
      fs.rmSync(compileCache, { recursive: true, force: true });
    }
  }, 90_000);
});
