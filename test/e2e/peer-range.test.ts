import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensurePeerSdk, lowestPeerVersion } from "../../scripts/lib/peer-sdk";
import { platformConfig, useE2eEmulator } from "../support/e2e";
import { withStack } from "../support/engine";
import { step } from "../support/step";

// The lowest `@pulumi/pulumi` of the peer range (package.json's `^X.Y.Z`: X.Y.Z), installed once
// from the npm registry into the cache (scripts/lib/peer-sdk.js), in a project outside the
// repository beside a copy of the built package, so that the program, the dynamic host and the
// plugin all load that version and nothing resolves from the repository (whose `@pulumi/pulumi`
// is the dev dependency). Each door walks a lifecycle through the real engine, and the adapter
// of the SDK's internals (provider/pulumi-sdk) reports which paths that version takes.

const repoRoot = path.resolve(__dirname, "..", "..");
const e = useE2eEmulator();
const APP = "demo-app";
const version = lowestPeerVersion();

let project: string;
let packageDir: string;
/** A PATH with the repository's Node (22) and nothing else of the repository (its .bin has the plugin). */
let nodeOnlyBin: string;

/** The project's `node_modules`: links to the cached install's entries, the package's dependencies, a copy of the package. */
function makeProject(dir: string, sdkModules: string): void {
  const modules = path.join(dir, "node_modules");
  fs.mkdirSync(modules, { recursive: true });
  for (const entry of fs.readdirSync(sdkModules)) {
    if (entry === ".package-lock.json") continue;
    const from = path.join(sdkModules, entry);
    if (entry.startsWith("@")) {
      fs.mkdirSync(path.join(modules, entry));
      for (const scoped of fs.readdirSync(from))
        fs.symlinkSync(path.join(from, scoped), path.join(modules, entry, scoped));
    } else {
      fs.symlinkSync(from, path.join(modules, entry));
    }
  }
  // The package's own dependencies that the program and the runtime load (neither loads @pulumi/pulumi).
  for (const dep of ["zod", "undici"]) {
    if (!fs.existsSync(path.join(modules, dep)))
      fs.symlinkSync(path.join(repoRoot, "node_modules", dep), path.join(modules, dep));
  }
  // A copy, not a link: a link's real path is in the repository, whose @pulumi/pulumi would load.
  packageDir = path.join(modules, "pulumi-platform");
  fs.mkdirSync(packageDir);
  for (const f of ["package.json", "pulumi-resource-platform"])
    fs.cpSync(path.join(repoRoot, f), path.join(packageDir, f));
  for (const d of ["provider", "sdk"]) {
    fs.cpSync(path.join(repoRoot, "dist", d), path.join(packageDir, "dist", d), {
      recursive: true,
      preserveTimestamps: true,
    });
  }
  fs.writeFileSync(
    path.join(dir, "Pulumi.yaml"),
    `${JSON.stringify({ name: "peer-range", runtime: "nodejs", main: "index.js", plugins: { providers: [{ name: "platform", path: packageDir }] } }, null, 2)}\n`,
  );
  fs.writeFileSync(
    path.join(dir, "package.json"),
    `${JSON.stringify({ name: "peer-range", private: true, main: "index.js" }, null, 2)}\n`,
  );
  fs.writeFileSync(
    path.join(dir, "index.js"),
    `// Either door, one Volume; what the program loaded, and the adapter's paths in the program.
const pulumi = require("@pulumi/pulumi");
const config = new pulumi.Config();
const door = config.require("door");
const platform = require(door === "plugin" ? "pulumi-platform/plugin" : "pulumi-platform");
const data = new platform.Volume("data", { app: ${JSON.stringify(APP)}, name: config.require("volumeName"), sizeGb: 1 });
const pkg = path => require.resolve("pulumi-platform/package.json").replace(/package\\.json$/, path);
exports.volumeId = data.id;
exports.sizeGb = data.sizeGb;
exports.pulumiVersion = require("@pulumi/pulumi/package.json").version;
exports.pulumiDir = require("fs").realpathSync(require.resolve("@pulumi/pulumi/package.json"));
exports.paths = require(pkg("dist/provider/pulumi-sdk/program.js")).programPaths();
`,
  );
  // Outside any program: the plugin's and the runtime's probes, with this version's protos.
  fs.writeFileSync(
    path.join(dir, "probes.js"),
    `const { createRequire } = require("module");
const pkg = path => require.resolve("pulumi-platform/package.json").replace(/package\\.json$/, path);
const fromPulumi = createRequire(require.resolve("@pulumi/pulumi/package.json"));
const plain = require(pkg("dist/provider/plugin/plain-messages.js"));
const { resourceCallMessages } = require(pkg("dist/provider/pulumi-sdk/messages.js"));
const { hostLogPathOf } = require(pkg("dist/provider/pulumi-sdk/processes.js"));
const { programPaths } = require(pkg("dist/provider/pulumi-sdk/program.js"));
(async () => {
  const messages = resourceCallMessages(
    { requestDecoder: plain.requestDecoder, responseEncoders: plain.responseEncoders, layouts: plain.REQUEST_LAYOUTS },
    { provider: fromPulumi("./proto/provider_pb"), struct: fromPulumi("google-protobuf/google/protobuf/struct_pb") },
  ).path;
  console.log(JSON.stringify({ resourceCallMessages: messages, hostLog: await hostLogPathOf(), ...(await programPaths()) }));
})();
`,
  );
}

beforeAll(() => {
  const sdk = ensurePeerSdk(version);
  console.log(
    `peer-range: @pulumi/pulumi ${version} in ${sdk.nodeModules} (${sdk.created ? `installed in ${sdk.seconds.toFixed(1)} s` : "cached"})`,
  );
  project = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-platform-peer-range-"));
  nodeOnlyBin = path.join(project, ".node-bin");
  fs.mkdirSync(nodeOnlyBin);
  fs.symlinkSync(process.execPath, path.join(nodeOnlyBin, "node"));
  makeProject(path.join(project, "app"), sdk.nodeModules);
}, 300_000);
afterAll(() => {
  if (project) fs.rmSync(project, { recursive: true, force: true });
});

/**
 * `up`, a `preview` that plans nothing, a `refresh` that finds nothing, `destroy`, through `door`,
 * with the SDK's fast paths (`fast`) or without them (`PULUMI_PLATFORM_SDK_FAST_PATHS=off`).
 */
async function lifecycle(door: "dynamic" | "plugin", paths: "fast" | "off") {
  const volumeName = `peer_${door}_${paths}`;
  const dir = path.join(project, "app");
  const cliDir = process.env.PULUMI_PLATFORM_CLI_DIR as string;
  return withStack(
    {
      programDir: dir,
      config: { ...platformConfig(e.emu), door, volumeName },
      // Node 22 without the repository's .bin (its pulumi-resource-platform would run the repository's build).
      env: {
        PATH: [
          cliDir,
          nodeOnlyBin,
          (process.env.PATH ?? "")
            .split(path.delimiter)
            .filter((p) => !p.startsWith(repoRoot))
            .join(path.delimiter),
        ].join(path.delimiter),
        // The plugin from its modules, which load this version's protos (the one-file build bundles the dev dependency's).
        PULUMI_PLATFORM_PLUGIN_BUNDLE: "0",
        ...(paths === "off" ? { PULUMI_PLATFORM_SDK_FAST_PATHS: "off" } : {}),
      },
    },
    async ({ stack }) => {
      const up = await step(`${door} (${paths}): up`, () => stack.up());
      expect(up.summary.result).toBe("succeeded");
      expect(up.outputs.pulumiVersion?.value).toBe(version);
      expect(String(up.outputs.pulumiDir?.value)).toContain(`pulumi-sdk-${version}`);
      expect(up.outputs.sizeGb?.value).toBe(1);
      const volumeId = String(up.outputs.volumeId?.value);
      expect((await e.api("GET", `/v1/apps/${APP}/volumes/${volumeId}`)).body).toMatchObject({
        name: volumeName,
        size_gb: 1,
      });
      const { deployment } = await stack.exportStack();
      const types = (deployment.resources as { type: string }[]).map((r) => r.type);
      expect(types).toContain(
        door === "plugin" ? "platform:index:Volume" : "pulumi-nodejs:dynamic/platform:Volume",
      );
      await step(`${door} (${paths}): preview plans nothing`, () => stack.preview({ expectNoChanges: true }));
      await step(`${door} (${paths}): refresh finds nothing`, () => stack.refresh({ expectNoChanges: true }));
      const destroy = await step(`${door} (${paths}): destroy`, () => stack.destroy());
      expect(destroy.summary.result).toBe("succeeded");
      const gone = await e.api("GET", `/v1/apps/${APP}/volumes/${volumeId}`);
      expect(gone.status === 404 || gone.body.state === "destroyed").toBe(true);
      return up.outputs.paths?.value as Record<string, string>;
    },
  );
}

describe(`the lowest @pulumi/pulumi of the peer range (${version})`, () => {
  it("the adapter's probes all hold: every fast path is taken", () => {
    const out = execFileSync(process.execPath, ["probes.js"], {
      cwd: path.join(project, "app"),
      encoding: "utf8",
    });
    const paths = JSON.parse(out) as Record<string, string>;
    console.log(`peer-range: @pulumi/pulumi ${version} takes ${JSON.stringify(paths)}`);
    expect(paths).toEqual({
      resourceCallMessages: "fast",
      hostLog: "fast",
      stackTraceLimit: "fast",
      registrationFrames: "fast",
      outputKnown: "fast",
      mockMonitor: "fast",
    });
  });

  it("each door walks up, a preview that plans nothing, refresh and destroy through the engine", async () => {
    const started = performance.now();
    const [dynamic, plugin] = await Promise.all([lifecycle("dynamic", "fast"), lifecycle("plugin", "fast")]);
    // The program's own report, from inside `pulumi up`.
    for (const paths of [dynamic, plugin]) {
      expect(paths).toEqual({
        stackTraceLimit: "fast",
        registrationFrames: "fast",
        outputKnown: "fast",
        mockMonitor: "fast",
      });
    }
    console.log(`peer-range: both lifecycles in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  });

  it("and again with PULUMI_PLATFORM_SDK_FAST_PATHS=off: the program, the dynamic host and the plugin on the public paths", async () => {
    const started = performance.now();
    const [dynamic, plugin] = await Promise.all([lifecycle("dynamic", "off"), lifecycle("plugin", "off")]);
    for (const paths of [dynamic, plugin]) {
      expect(paths).toEqual({
        stackTraceLimit: "public",
        registrationFrames: "public",
        outputKnown: "public",
        mockMonitor: "public",
      });
    }
    console.log(
      `peer-range: both lifecycles, fast paths off, in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
  });
});
