import { execFile, execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOfflineBackend, ensurePulumiCli } from "../../scripts/lib/pulumi-engine";
import { ensurePythonEnv } from "../../scripts/lib/python-env";
import { useE2eEmulator } from "../support/e2e";
import { tempDir } from "../support/emulator";
import { step } from "../support/step";

// The plugin as a user of another language gets it: `npm run plugin-archive`'s tar.gz installed
// with `pulumi plugin install resource platform <version> --file` into a fresh PULUMI_HOME, then a
// YAML program and a Python Automation API inline program (the generated SDK, whose
// pulumi-plugin.json names the version) in folders with no package.json, no node_modules and no
// plugins.providers, with a PATH holding the CLI and a Node 22 but no pulumi-resource-platform.
// Preview, up and destroy print no warning.

const e = useE2eEmulator();
const APP = "demo-app";
const repoRoot = path.resolve(__dirname, "..", "..");
const { version } = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")) as {
  version: string;
};

let workDir: string;
let env: NodeJS.ProcessEnv;
let backend: ReturnType<typeof createOfflineBackend>;

/** Runs a command without blocking the event loop (the emulator answers from this process). */
function run(cmd: string, args: string[], cwd: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(cmd, args, { cwd, env, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === "number" ? err.code : 1) : 0;
      resolve({ code, output: `${stdout}${stderr}` });
    });
  });
}

async function ok(cmd: string, args: string[], cwd: string): Promise<string> {
  const ran = await run(cmd, args, cwd);
  expect(ran.code, `${cmd} ${args.join(" ")}:\n${ran.output}`).toBe(0);
  return ran.output;
}

/** What no command may print: a plugin from PATH, a missing plugin, a download, any warning. */
function expectQuiet(output: string): void {
  expect(output).not.toContain("from $PATH");
  expect(output).not.toContain("no resource plugin");
  expect(output).not.toMatch(/download/i);
  expect(output).not.toMatch(/warning/i);
}

beforeAll(() => {
  workDir = tempDir("pulumi-platform-plugin-archive-");
  const archive =
    execFileSync(process.execPath, [path.join(repoRoot, "scripts", "plugin-archive.js"), "--out", workDir], {
      encoding: "utf8",
    })
      .trim()
      .split("\n")
      .pop() ?? "";
  expect(path.basename(archive)).toMatch(
    new RegExp(`^pulumi-resource-platform-v${version}-\\w+-\\w+\\.tar\\.gz$`),
  );
  const nodeDir = path.join(workDir, "node-bin");
  fs.mkdirSync(nodeDir);
  fs.symlinkSync(
    fs.realpathSync(path.join(repoRoot, "node_modules", ".bin", "node")),
    path.join(nodeDir, "node"),
  );
  const cliDir = ensurePulumiCli();
  backend = createOfflineBackend("plugin-archive");
  const rest = (process.env.PATH ?? "")
    .split(path.delimiter)
    .filter((dir) => dir !== "" && !fs.existsSync(path.join(dir, "pulumi-resource-platform")));
  env = {
    ...process.env,
    PATH: [cliDir, nodeDir, ...rest].join(path.delimiter),
    PULUMI_BACKEND_URL: backend.backendUrl,
    PULUMI_HOME: backend.pulumiHome,
    PULUMI_CONFIG_PASSPHRASE: "plugin-archive",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    // Found because it is installed, never downloaded (nothing is published).
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PULUMI_AUTOMATION_API_SKIP_VERSION_CHECK: "true",
    PYTHONDONTWRITEBYTECODE: "1",
  };
  for (const key of [
    "PLATFORM_API_URL",
    "PLATFORM_API_TOKEN",
    "PULUMI_IGNORE_AMBIENT_PLUGINS",
    "PULUMI_ACCESS_TOKEN",
  ])
    delete env[key];
  const installed = execFileSync(
    "pulumi",
    ["plugin", "install", "resource", "platform", version, "--file", archive],
    { env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] },
  );
  expectQuiet(installed);
  const pluginDir = path.join(backend.pulumiHome, "plugins", `resource-platform-v${version}`);
  expect(fs.readdirSync(pluginDir).sort()).toEqual(["package.json", "plugin.js", "pulumi-resource-platform"]);
});

afterAll(() => {
  backend?.remove();
  if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
});

describe("the plugin archive installed once, no package.json, no plugins.providers, no PATH entry", () => {
  it("a YAML program previews, ups and destroys with no warning", async () => {
    const dir = path.join(workDir, "yaml");
    fs.mkdirSync(dir);
    fs.writeFileSync(
      path.join(dir, "Pulumi.yaml"),
      `name: archive-yaml
runtime: yaml
resources:
  data:
    type: platform:index:Volume
    properties:
      app: ${APP}
      name: archive-yaml
      region: ord
      sizeGb: 3
outputs:
  volumeId: \${data.volumeId}
`,
    );
    await step("stack and config", async () => {
      await ok("pulumi", ["stack", "init", "dev"], dir);
      await ok("pulumi", ["config", "set", "platform:apiUrl", e.url], dir);
      await ok("pulumi", ["config", "set", "--secret", "platform:apiToken", e.token], dir);
    });
    await step("preview", async () => {
      const out = await ok("pulumi", ["preview", "--non-interactive"], dir);
      expectQuiet(out);
      expect(out).toMatch(/\+ 2 to create/);
    });
    let volumeId = "";
    await step("up", async () => {
      const out = await ok("pulumi", ["up", "--yes", "--non-interactive"], dir);
      expectQuiet(out);
      volumeId = (await ok("pulumi", ["stack", "output", "volumeId"], dir)).trim();
      expect((await e.api("GET", `/v1/apps/${APP}/volumes/${volumeId}`)).body).toMatchObject({
        name: "archive-yaml",
        size_gb: 3,
      });
    });
    await step("destroy", async () => {
      const out = await ok("pulumi", ["destroy", "--yes", "--non-interactive"], dir);
      expectQuiet(out);
      const gone = await e.api("GET", `/v1/apps/${APP}/volumes/${volumeId}`);
      expect(gone.status === 404 || gone.body.state === "destroyed").toBe(true);
    });
    expect(fs.readdirSync(dir).sort()).toEqual(["Pulumi.dev.yaml", "Pulumi.yaml"]);
  });

  it("a Python Automation API inline program on the generated SDK previews, ups and destroys with no warning", async () => {
    const python = ensurePythonEnv();
    const dir = path.join(workDir, "python");
    fs.mkdirSync(dir);
    const script = path.join(workDir, "archive_program.py");
    fs.writeFileSync(
      script,
      `import json, sys
import pulumi
from pulumi import automation as auto
import pulumi_platform as platform


def program() -> None:
    volume = platform.Volume("data", app="${APP}", name="archive-python", region="ord", size_gb=3)
    pulumi.export("volumeId", volume.volume_id)


stack = auto.create_or_select_stack(
    stack_name="dev",
    project_name="archive-python",
    program=program,
    opts=auto.LocalWorkspaceOptions(work_dir=sys.argv[1]),
)
stack.set_config("platform:apiUrl", auto.ConfigValue(value=sys.argv[2]))
stack.set_config("platform:apiToken", auto.ConfigValue(value=sys.argv[3], secret=True))
preview = stack.preview()
up = stack.up()
volume_id = up.outputs["volumeId"].value
destroy = stack.destroy()
print(json.dumps({
    "preview": preview.change_summary,
    "up": up.summary.resource_changes,
    "destroy": destroy.summary.resource_changes,
    "volumeId": volume_id,
    "output": "\\n".join([preview.stdout, preview.stderr, up.stdout, up.stderr, destroy.stdout, destroy.stderr]),
}))
`,
    );
    const out = await step("preview, up, destroy", () =>
      ok(python.python, [script, dir, e.url, e.token], workDir),
    );
    const result = JSON.parse(out.trim().split("\n").pop() ?? "") as {
      preview: Record<string, number>;
      up: Record<string, number>;
      destroy: Record<string, number>;
      volumeId: string;
      output: string;
    };
    expectQuiet(out);
    expectQuiet(result.output);
    expect(result.preview).toEqual({ create: 2 });
    expect(result.up).toEqual({ create: 2 });
    expect(result.destroy).toEqual({ delete: 2 });
    const gone = await e.api("GET", `/v1/apps/${APP}/volumes/${result.volumeId}`);
    expect(gone.status === 404 || gone.body.state === "destroyed").toBe(true);
    expect(fs.readdirSync(dir).sort()).toEqual(["Pulumi.dev.yaml", "Pulumi.yaml"]);
  });
});
