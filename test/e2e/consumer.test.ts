import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { LocalWorkspace, PulumiCommand } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createControlClient, type RunningEmulator, startEmulator } from "../../emulator";
import { createOfflineBackend, ensurePulumiCli, offlineEngineEnv } from "../../scripts/lib/pulumi-engine";

// The package as users get it: `npm pack`, installed from the tarball into a fresh Pulumi project
// outside the repository, then up and destroy through the real CLI. Nothing can resolve from the
// repository here, so the program and the dynamic provider both load the installed copy.

const repoRoot = path.resolve(__dirname, "..", "..");
const nodeBin = path.join(repoRoot, "node_modules", ".bin");

let emu: RunningEmulator;
let workDir: string;

beforeAll(async () => {
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-platform-consumer-"));
  emu = await startEmulator({
    port: 0,
    eventsPort: 0,
    quiet: true,
    taskSocket: path.join(workDir, "api.sock"),
  });
});
afterAll(async () => {
  await emu?.close();
  if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
});

/** The version of a dev dependency installed in the repo, so the consumer install hits the warm cache. */
function installedVersion(name: string): string {
  return JSON.parse(fs.readFileSync(path.join(repoRoot, "node_modules", name, "package.json"), "utf8"))
    .version;
}

function npm(args: string[], cwd: string): string {
  return execFileSync("npm", args, {
    cwd,
    encoding: "utf8",
    // Node 22 from the repo first; no repo-local settings leak into the consumer's install.
    env: {
      ...process.env,
      PATH: [nodeBin, process.env.PATH ?? ""].join(path.delimiter),
      npm_config_loglevel: "error",
    },
    stdio: ["ignore", "pipe", "pipe"],
    maxBuffer: 16 * 1024 * 1024,
  });
}

describe("the published package in a fresh project", () => {
  it("installs from the npm pack tarball and runs up and destroy with the provider from node_modules", async () => {
    // dist/ was just built by the e2e global setup; packing must not rebuild it.
    const packed = npm(["pack", "--ignore-scripts", "--json", "--pack-destination", workDir], repoRoot);
    const [{ filename, files }] = JSON.parse(packed) as [{ filename: string; files: { path: string }[] }];
    const tarball = path.join(workDir, path.basename(filename));
    expect(fs.existsSync(tarball)).toBe(true);
    const shipped = files.map((f) => f.path);
    expect(shipped).toContain("dist/provider/index.js");
    expect(shipped).toContain("dist/provider/kinds/runtime-entry.js");
    expect(shipped).toContain("dist/emulator/cli.js");
    expect(shipped).toContain("dist/ops/main.js");
    expect(shipped).toContain("CHANGELOG.md");
    // TypeScript sources ship only beside what they compile to (for the source maps), and the
    // examples the README links (each a project of its own, never compiled here), never tests.
    const unexpected = shipped.filter(
      (f) =>
        f.startsWith("test/") ||
        f.startsWith("scripts/") ||
        /(^|\/)Pulumi\.[^/]+\.yaml$/.test(f) ||
        (f.endsWith(".ts") && !f.endsWith(".d.ts") && !/^(provider|sdk|emulator|ops|examples)\//.test(f)),
    );
    expect(unexpected).toEqual([]);
    expect(shipped).toContain("examples/quickstart/README.md");
    expect(shipped).toContain("provider/index.ts");

    const project = path.join(workDir, "consumer");
    fs.mkdirSync(project);
    fs.writeFileSync(path.join(project, "Pulumi.yaml"), "name: platform-consumer\nruntime: nodejs\n");
    fs.writeFileSync(
      path.join(project, "package.json"),
      JSON.stringify(
        {
          name: "platform-consumer",
          private: true,
          main: "index.ts",
          dependencies: {
            "pulumi-platform": `file:${tarball}`,
            "@pulumi/pulumi": installedVersion("@pulumi/pulumi"),
          },
          devDependencies: {
            typescript: installedVersion("typescript"),
            "ts-node": installedVersion("ts-node"),
            "@types/node": installedVersion("@types/node"),
          },
        },
        null,
        2,
      ),
    );
    fs.writeFileSync(
      path.join(project, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "ES2023",
          module: "commonjs",
          strict: true,
          esModuleInterop: true,
          types: ["node"],
        },
        files: ["index.ts"],
      }),
    );
    fs.writeFileSync(
      path.join(project, "index.ts"),
      [
        `import { Volume } from "pulumi-platform";`,
        `const data = new Volume("data", { app: "demo-app", name: "consumer_data", sizeGb: 1 });`,
        `export const volumeId = data.id;`,
        `export const sizeGb = data.sizeGb;`,
        `export const packageDir = require.resolve("pulumi-platform/package.json");`,
        `export const nodeVersion = process.version;`,
        "",
      ].join("\n"),
    );
    npm(["install", "--prefer-offline", "--no-audit", "--no-fund"], project);
    const installed = path.join(project, "node_modules", "pulumi-platform");
    expect(fs.lstatSync(installed).isSymbolicLink()).toBe(false);
    expect(fs.existsSync(path.join(installed, "dist", "provider", "kinds", "runtime-entry.js"))).toBe(true);

    const cliDir = ensurePulumiCli();
    const backend = createOfflineBackend("consumer");
    const stackName = `c${randomBytes(4).toString("hex")}`;
    try {
      const pulumiCommand = await PulumiCommand.get({ root: path.dirname(cliDir), skipVersionCheck: true });
      const stack = await LocalWorkspace.createStack(
        { stackName, workDir: project },
        { pulumiCommand, envVars: offlineEngineEnv(backend, cliDir), pulumiHome: backend.pulumiHome },
      );
      await stack.setAllConfig({
        "platform:apiUrl": { value: emu.url },
        "platform:apiToken": { value: emu.token, secret: true },
      });

      const up = await stack.up();
      expect(up.summary.result).toBe("succeeded");
      expect(up.outputs.sizeGb?.value).toBe(1);
      expect(fs.realpathSync(String(up.outputs.packageDir?.value))).toBe(
        fs.realpathSync(path.join(installed, "package.json")),
      );
      expect(Number(/^v(\d+)\./.exec(String(up.outputs.nodeVersion?.value))?.[1])).toBeGreaterThanOrEqual(22);

      // The serialized provider only requires the installed package at run time.
      const deployment = (await stack.exportStack()).deployment;
      const volume = deployment.resources.find(
        (r: { type: string }) => r.type === "pulumi-nodejs:dynamic/platform:Volume",
      );
      expect(String(volume.inputs.__provider)).toContain(`require("pulumi-platform/provider/runtime")`);

      const state = await createControlClient(emu.url, emu.token).state();
      expect(state.volumes).toMatchObject([
        { id: up.outputs.volumeId?.value, name: "consumer_data", size_gb: 1 },
      ]);

      await stack.refresh({ expectNoChanges: true });
      const destroy = await stack.destroy();
      expect(destroy.summary.resourceChanges).toMatchObject({ delete: 2 });
      await stack.workspace.removeStack(stackName);
    } finally {
      backend.remove();
    }
  });
});
