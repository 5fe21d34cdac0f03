import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { createOfflineBackend, ensurePulumiCli, offlineEngineEnv } from "../../scripts/lib/pulumi-engine";
import { platformConfig, useE2eEmulator } from "../support/e2e";
import { tempDir } from "../support/emulator";
import { withStack } from "../support/engine";
import { step } from "../support/step";
import { pulumiCliTranscript } from "../support/yaml-program";

// examples/go-quickstart (a volume, its snapshot, a restore) on the generated Go SDK, through the
// real CLI, the Go language host (`runtime: go`: the host runs `go build` on every command; the
// Go build cache makes all but the first fast) and the plugin `pulumi-resource-platform`.

const e = useE2eEmulator();
const APP = "demo-app";
const program = path.resolve(__dirname, "..", "..", "examples", "go-quickstart");

/** Why a Go program cannot run here (no Go host beside the CLI, no `go`), or undefined. */
function goMissing(): string | undefined {
  const cliDir = ensurePulumiCli();
  if (!fs.existsSync(path.join(cliDir, "pulumi-language-go"))) {
    return (
      `pulumi-language-go is missing beside the Pulumi CLI in ${cliDir}: a \`runtime: go\` program cannot run. ` +
      "Official CLI installs ship it; point PULUMI_PLATFORM_CLI_DIR at a directory holding the CLI and its " +
      "language hosts (the sources and build.sh: vendor/pulumi-language-hosts-v3.259.0 beside DESIGN.md)."
    );
  }
  try {
    execFileSync("go", ["version"], { stdio: "ignore" });
  } catch {
    return "the Go toolchain (`go`) is not on PATH: the Go language host builds the program with it";
  }
  return undefined;
}

/** Fails the test (never skips it) when a Go program cannot run here. */
function requireGo(): void {
  const missing = goMissing();
  if (missing !== undefined) throw new Error(missing);
}

/** Seconds `fn` took, printed with `label` (how long the Go host's build adds to a command). */
async function timed<T>(label: string, fn: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await fn();
  } finally {
    console.log(`go-quickstart: ${label} took ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
}

/**
 * Builds the program once as the Go host does (its flags: the build cache is keyed by them), so
 * that a cold Go build cache costs this hook, not the lifecycle's test timeout. Prints how long.
 */
function warmGoBuild(): void {
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "go-quickstart-")), "program");
  const started = performance.now();
  try {
    execFileSync("go", ["build", "-buildvcs=false", "-o", out, "-trimpath", "-ldflags", "-w -s", "."], {
      cwd: program,
      stdio: ["ignore", "ignore", "pipe"],
    });
  } finally {
    fs.rmSync(path.dirname(out), { recursive: true, force: true });
  }
  console.log(
    `go-quickstart: go build (the Go host's flags) took ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}

describe("the Go quickstart through the engine (Go host, plugin, emulator)", () => {
  // A missing host or toolchain fails the tests below (a failed hook would only mark them skipped).
  beforeAll(() => {
    if (goMissing() === undefined) warmGoBuild();
  });

  it("walks preview, up, a clean preview and refresh, a grow in place, a shrink rejected at preview, and destroy", async () => {
    requireGo();
    const config = { ...platformConfig(e.emu), sizeGb: "3" };
    await withStack({ programDir: program, config }, async ({ stack }) => {
      const volume = async (id: string) => (await e.api("GET", `/v1/apps/${APP}/volumes/${id}`)).body;

      await step("preview", async () => {
        // The stack, the volume, its snapshot and the restored volume.
        const preview = await timed("first preview", () => stack.preview());
        expect(preview.changeSummary.create).toBe(4);
      });

      const ids = await step("up", async () => {
        const up = await timed("up", () => stack.up());
        expect(up.summary.resourceChanges).toMatchObject({ create: 4 });
        const out = (key: string) => up.outputs[key]?.value;
        expect(out("app")).toBe(APP);
        expect(out("sizeGb")).toBe(3);
        expect(String(out("snapshotId"))).not.toBe("");
        expect(out("restoredState")).toBe("created");
        // The restore names the snapshot the program took of the first volume: typed outputs chained.
        expect(out("restoredFrom")).toBe(out("snapshotId"));
        return {
          data: String(out("volumeId")),
          restored: String(out("restoredVolumeId")),
          snapshot: String(out("snapshotId")),
        };
      });
      expect((await volume(ids.data)).size_gb).toBe(3);
      expect((await volume(ids.restored)).name).toBe("data_restored");

      await step("preview --expect-no-changes, refresh --expect-no-changes", async () => {
        await timed("clean preview", () => stack.preview({ expectNoChanges: true }));
        await stack.refresh({ expectNoChanges: true });
      });

      await step("a grow in place: sizeGb 3 → 5 is one update, no replace", async () => {
        await stack.setConfig("sizeGb", { value: "5" });
        const up = await stack.up();
        expect(up.summary.resourceChanges).toEqual({ update: 1, same: 3 });
        expect(up.outputs.volumeId?.value).toBe(ids.data);
        expect(up.outputs.sizeGb?.value).toBe(5);
        expect((await volume(ids.data)).size_gb).toBe(5);
        await stack.preview({ expectNoChanges: true });
      });

      await step("a shrink 5 → 4 rejected at preview, naming sizeGb, with no mutating request", async () => {
        await stack.setConfig("sizeGb", { value: "4" });
        await e.control.requests.clear();
        const rejected = await stack.preview().then(
          () => undefined,
          (err: unknown) => String(err),
        );
        expect(rejected, "the shrink's preview must fail").toBeDefined();
        expect(rejected).toMatch(/sizeGb/);
        expect(rejected).toMatch(/volumes can only grow: 5 GB → 4 GB/);
        const mutating = (await e.control.requests.list()).filter((r) => r.method !== "GET");
        expect(mutating).toEqual([]);
        expect((await volume(ids.data)).size_gb).toBe(5);
        await stack.setConfig("sizeGb", { value: "5" });
      });

      await step("destroy: nothing left at the platform", async () => {
        await stack.destroy();
        for (const id of [ids.data, ids.restored]) {
          const gone = await e.api("GET", `/v1/apps/${APP}/volumes/${id}`);
          expect(
            gone.status === 404 || gone.body.state === "destroyed",
            `${id}: ${JSON.stringify(gone.body)}`,
          ).toBe(true);
        }
        expect((await e.api("GET", `/v1/apps/${APP}/volumes`)).body).toEqual([]);
      });
    });
  });
});

/** The plugin's executable as `npm install pulumi-platform` puts it on PATH. */
const PLUGIN = path.resolve(__dirname, "..", "..", "node_modules", ".bin", "pulumi-resource-platform");

/** `pulumi package add <plugin>` in `dir`, with the offline engine's environment; what it printed. */
async function packageAdd(dir: string, source: string): Promise<string> {
  const cliDir = ensurePulumiCli();
  const backend = createOfflineBackend("package-add");
  try {
    const env = offlineEngineEnv(backend, cliDir);
    const printed = await pulumiCliTranscript({ env, cliDir }, undefined, dir, ["package", "add", source]);
    expect(printed.ok, printed.output).toBe(true);
    return printed.output;
  } finally {
    backend.remove();
  }
}

describe("`pulumi package add` of the plugin", () => {
  it("Go: generates the SDK with typed outputs under sdks/platform, adds the go.mod replace, and the quickstart's chain compiles on it after `go mod tidy`", async () => {
    requireGo();
    const dir = tempDir("package-add-go-");
    onTestFinished(() => fs.rmSync(dir, { recursive: true, force: true }));
    fs.writeFileSync(path.join(dir, "Pulumi.yaml"), "name: package-add-go\nruntime: go\n");
    fs.writeFileSync(
      path.join(dir, "go.mod"),
      "module example.com/package-add-go\n\ngo 1.25\n\nrequire github.com/pulumi/pulumi/sdk/v3 v3.259.0\n",
    );
    fs.copyFileSync(path.join(program, "go.sum"), path.join(dir, "go.sum"));
    fs.writeFileSync(
      path.join(dir, "main.go"),
      'package main\n\nimport "github.com/pulumi/pulumi/sdk/v3/go/pulumi"\n\nfunc main() { pulumi.Run(func(*pulumi.Context) error { return nil }) }\n',
    );
    const printed = await step("pulumi package add", () => packageAdd(dir, PLUGIN));
    // The CLI's hint derives the path from the repository URL (`…/sdk/go/platform`) and ignores
    // the schema's importBasePath; the generated code and the replace use the schema's.
    expect(printed).toContain("Added package Platform");
    const sdk = path.join(dir, "sdks", "platform");
    expect(fs.readFileSync(path.join(sdk, "go.mod"), "utf8")).toMatch(
      /^module github\.com\/pulumi-platform\/pulumi-platform\/sdk-gen\/go$/m,
    );
    const volume = fs.readFileSync(path.join(sdk, "platform", "volume.go"), "utf8");
    expect(volume).toMatch(/\bApp pulumi\.StringOutput\b/);
    expect(volume).toMatch(/\bSizeGb pulumi\.IntOutput\b/);
    expect(volume).toMatch(/\bVolumeId pulumi\.StringOutput\b/);
    // The same code as the committed sdk-gen/go.
    expect(volume).toBe(
      fs.readFileSync(path.resolve(__dirname, "..", "..", "sdk-gen", "go", "platform", "volume.go"), "utf8"),
    );
    expect(fs.readFileSync(path.join(dir, "go.mod"), "utf8")).toContain(
      "replace github.com/pulumi-platform/pulumi-platform/sdk-gen/go => ./sdks/platform",
    );
    expect(fs.readFileSync(path.join(dir, "Pulumi.yaml"), "utf8")).toMatch(
      /packages:\n\s+platform: platform@/,
    );

    await step("the quickstart's program on the added SDK: go mod tidy, go build", async () => {
      // The replace alone does not compile ("replaced but not required"): `go mod tidy` adds the require.
      fs.copyFileSync(path.join(program, "main.go"), path.join(dir, "main.go"));
      const go = (args: string[]) =>
        execFileSync("go", args, {
          cwd: dir,
          env: { ...process.env, GOPROXY: "off", GOFLAGS: "-mod=mod" },
          stdio: "pipe",
        });
      go(["mod", "tidy"]);
      expect(fs.readFileSync(path.join(dir, "go.mod"), "utf8")).toMatch(
        /github\.com\/pulumi-platform\/pulumi-platform\/sdk-gen\/go v0\.0\.0-/,
      );
      go([
        "build",
        "-buildvcs=false",
        "-o",
        path.join(dir, "program"),
        "-trimpath",
        "-ldflags",
        "-w -s",
        ".",
      ]);
      expect(fs.existsSync(path.join(dir, "program"))).toBe(true);
    });
  });

  it("TypeScript: generates @pulumi-platform/platform beside the pulumi-platform npm package (which keeps its plugin binary), with typed outputs, and a program chaining a volume, its snapshot and a restore compiles", async () => {
    const dir = tempDir("package-add-ts-");
    onTestFinished(() => fs.rmSync(dir, { recursive: true, force: true }));
    const root = path.resolve(__dirname, "..", "..");
    // The npm package as a user installs it (from a tarball of this checkout: dist/ is built).
    const packed = execFileSync("npm", ["pack", "--ignore-scripts", "--pack-destination", dir, "--silent"], {
      cwd: root,
      encoding: "utf8",
    }).trim();
    fs.writeFileSync(path.join(dir, "Pulumi.yaml"), "name: package-add-ts\nruntime: nodejs\n");
    const pulumiVersion = JSON.parse(
      fs.readFileSync(path.join(root, "node_modules", "@pulumi", "pulumi", "package.json"), "utf8"),
    ).version;
    fs.writeFileSync(
      path.join(dir, "package.json"),
      JSON.stringify({
        name: "package-add-ts",
        private: true,
        dependencies: { "@pulumi/pulumi": pulumiVersion, "pulumi-platform": `file:./${packed}` },
      }),
    );
    await step("npm install pulumi-platform", async () => {
      execFileSync("npm", ["install", "--no-audit", "--no-fund"], { cwd: dir, stdio: "pipe" });
    });
    const bin = path.join(dir, "node_modules", ".bin", "pulumi-resource-platform");
    expect(fs.existsSync(bin)).toBe(true);

    await step("pulumi package add ./node_modules/.bin/pulumi-resource-platform", () =>
      packageAdd(dir, "./node_modules/.bin/pulumi-resource-platform"),
    );
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
    expect(manifest.dependencies["pulumi-platform"]).toBe(`file:./${packed}`);
    expect(manifest.dependencies["@pulumi-platform/platform"]).toBe("file:sdks/platform");
    expect(fs.existsSync(bin)).toBe(true);
    const generated = path.join(dir, "node_modules", "@pulumi-platform", "platform");
    const volume = fs.readFileSync(path.join(generated, "volume.ts"), "utf8");
    expect(volume).toMatch(/public readonly app: pulumi\.Output<string>;/);
    expect(volume).toMatch(/public readonly sizeGb: pulumi\.Output<number>;/);
    expect(volume).toMatch(/public \/\*out\*\/ readonly volumeId: pulumi\.Output<string>;/);

    await step("a program on the generated SDK compiles (tsc --noEmit)", async () => {
      fs.writeFileSync(
        path.join(dir, "index.ts"),
        `import * as platform from "@pulumi-platform/platform";
import * as plugin from "pulumi-platform/plugin";

const data = new platform.Volume("data", { app: "demo-app", name: "data", region: "iad", sizeGb: 3 });
const snap = new platform.VolumeSnapshot("snap", { app: "demo-app", volumeId: data.volumeId });
const restored = new platform.Volume("restored", {
  app: "demo-app",
  name: "data_restored",
  region: "iad",
  snapshotId: snap.snapshotId,
});
// The npm package's own plugin classes, same outputs.
const other: plugin.Volume = new plugin.Volume("other", { app: "demo-app", name: "other", region: "iad" });
export const ids = [restored.volumeId, other.volumeId];
`,
      );
      fs.writeFileSync(
        path.join(dir, "tsconfig.json"),
        JSON.stringify({
          compilerOptions: {
            strict: true,
            target: "es2022",
            module: "node16",
            moduleResolution: "node16",
            skipLibCheck: true,
            noEmit: true,
          },
          files: ["index.ts"],
        }),
      );
      execFileSync(
        process.execPath,
        [path.join(root, "node_modules", "typescript", "bin", "tsc"), "-p", dir],
        {
          cwd: dir,
          stdio: "pipe",
        },
      );
    });
  });
});
