import { type ChildProcess, execFileSync, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { Agent } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createControlClient } from "../../emulator";
import { createOfflineBackend, ensurePulumiCli } from "../../scripts/lib/pulumi-engine";
import { NODE_FLOOR, olderThanFloor } from "../../sdk/node-floor-check";

// A new user's first hour, from the README alone: the package packed as a release tarball
// (`npm pack`), installed into a fresh Pulumi TypeScript project by the README's install line,
// the README's example program run with the README's commands (`pulumi stack init`, `config set`,
// `preview`, `up`) against the emulator the package ships, then destroyed; once through each door,
// the plugin found through the README's `plugins.providers` lines. The `pulumi` CLI is called as a
// user calls it, with a PATH holding the CLI and a Node 22 but no `pulumi-resource-platform`: the
// plugin must be found without a PATH entry, and no command may warn of one, nor of a bad `main`.

const repoRoot = path.resolve(__dirname, "..", "..");
const README = fs.readFileSync(path.join(repoRoot, "README.md"), "utf8");

/** The fenced blocks of a Markdown text in `language`, in order (a list item's without its indent). */
function blocks(text: string, language: string): string[] {
  return [...text.matchAll(/^( *)```(\w*)\n([\s\S]*?)^\1```$/gm)]
    .filter((m) => m[2] === language)
    .map((m) => (m[3] ?? "").replace(new RegExp(`^${m[1]}`, "gm"), ""));
}

/** The README's block of `language` that contains `marker`. */
function readmeBlock(language: string, marker: string): string {
  const found = blocks(README, language).filter((b) => b.includes(marker));
  expect(found, `one README ${language} block with ${marker}`).toHaveLength(1);
  return found[0] ?? "";
}

/** The version of a package installed in `dir`'s node_modules. */
function installedVersionIn(dir: string, name: string): string {
  return JSON.parse(fs.readFileSync(path.join(dir, "node_modules", name, "package.json"), "utf8")).version;
}

/** The version of a dev dependency installed in the repository, so that installs hit npm's cache. */
const installedVersion = (name: string) => installedVersionIn(repoRoot, name);

let workDir: string;
let tarballName: string;
let tarball: string;
let env: NodeJS.ProcessEnv;
let backend: ReturnType<typeof createOfflineBackend>;
let emulator: ChildProcess | undefined;
let emulatorUrl: string;
let cliDir: string;

/**
 * A PATH as a user with Node 22 and the Pulumi CLI has: the CLI's directory, a directory holding
 * only `node` (this repository's Node 22: the system's may be older), and the rest of this
 * process's PATH without any directory that holds `pulumi-resource-platform` (this repository's
 * node_modules/.bin does, for the other e2e tests).
 */
function userPath(cliDir: string, nodeDir: string): string {
  const rest = (process.env.PATH ?? "")
    .split(path.delimiter)
    .filter((dir) => dir !== "" && !fs.existsSync(path.join(dir, "pulumi-resource-platform")));
  return [cliDir, nodeDir, ...rest].join(path.delimiter);
}

/**
 * A directory whose `node` is older than the package's floor: the system's Node when it is (Node 20
 * on many systems, and on this repository's machines), else this Node 22 playing Node 20.20.2
 * (`process.versions.node` set back before anything loads).
 */
function olderNode(): { dir: string; version: string } {
  const dir = path.join(workDir, "older-node-bin");
  fs.mkdirSync(dir, { recursive: true });
  const system = "/usr/bin/node";
  const systemVersion = fs.existsSync(system)
    ? spawnSync(system, ["-p", "process.versions.node"], { encoding: "utf8" }).stdout.trim()
    : "";
  if (systemVersion !== "" && olderThanFloor(systemVersion)) {
    fs.symlinkSync(system, path.join(dir, "node"));
    return { dir, version: systemVersion };
  }
  const preload = path.join(dir, "as-node-20.js");
  fs.writeFileSync(preload, 'Object.defineProperty(process.versions, "node", { value: "20.20.2" });\n');
  const wrapper = path.join(dir, "node");
  fs.writeFileSync(
    wrapper,
    `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} --require ${JSON.stringify(preload)} "$@"\n`,
  );
  fs.chmodSync(wrapper, 0o755);
  return { dir, version: "20.20.2" };
}

/** Runs `command` in `cwd` as the user would; its output (stdout and stderr), or a failure with it. */
function run(command: string, args: string[], cwd: string, ok = true): string {
  const result = spawnSync(command, args, {
    cwd,
    env,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output = `${result.stdout ?? ""}${result.stderr ?? ""}`;
  if (ok && result.status !== 0) {
    throw new Error(`${command} ${args.join(" ")} exited ${result.status}:\n${output}`);
  }
  return output;
}

const pulumi = (args: string[], cwd: string, ok = true) => run("pulumi", args, cwd, ok);

/** What no command of the first hour may print. */
function expectQuiet(output: string): void {
  expect(output).not.toContain("from $PATH");
  expect(output).not.toContain("no resource plugin");
  expect(output).not.toContain("DeprecationWarning");
  expect(output).not.toMatch(/EBADENGINE/);
}

/**
 * The TypeScript of a project: `pinned` is the 5.x this repository tests with (what `pulumi new
 * typescript` pins, `^5`), `today` what `npm install typescript` gives a user now (6.x at the time
 * of writing: @pulumi/pulumi's peer range stops below 7), from the registry.
 */
type TypeScriptOf = "pinned" | "today";

/**
 * A fresh project as `pulumi new typescript` makes it, with the README's `tsconfig.json`, and the
 * README's install line run in it (and `npm install typescript` for `today`).
 */
function newProject(name: string, typescript: TypeScriptOf): string {
  const dir = path.join(workDir, name);
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), `name: ${name}\nruntime: nodejs\n`);
  const devDependencies: Record<string, string> = { "@types/node": installedVersion("@types/node") };
  if (typescript === "pinned") devDependencies.typescript = installedVersion("typescript");
  fs.writeFileSync(
    path.join(dir, "package.json"),
    JSON.stringify({ name, main: "index.ts", devDependencies, dependencies: {} }, null, 2),
  );
  const tsconfig = JSON.parse(readmeBlock("json", '"moduleResolution"')) as {
    compilerOptions: Record<string, unknown>;
  };
  expect(tsconfig.compilerOptions).toMatchObject({ moduleResolution: "nodenext", esModuleInterop: true });
  fs.writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify(tsconfig, null, 2));
  // The release tarball beside package.json, as the README's install line expects it.
  fs.copyFileSync(tarball, path.join(dir, tarballName));
  const installLine = readmeBlock("sh", "npm install ./pulumi-platform-").trim();
  expect(installLine).toBe(`npm install ./${tarballName} @pulumi/pulumi`);
  // The same line with @pulumi/pulumi at the version this repository tests (npm's cache has it).
  const args = installLine.split(/\s+/).slice(1);
  args[args.indexOf("@pulumi/pulumi")] = `@pulumi/pulumi@${installedVersion("@pulumi/pulumi")}`;
  const installed = run("npm", [...args, "--prefer-offline", "--no-audit", "--no-fund"], dir);
  expectQuiet(installed);
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
  expect(manifest.dependencies["pulumi-platform"]).toBe(`file:${tarballName}`);
  if (typescript === "today") {
    expectQuiet(run("npm", ["install", "--save-dev", "typescript", "--no-audit", "--no-fund"], dir));
    const version = installedVersionIn(dir, "typescript");
    // What the README's tsconfig is claimed for: the TypeScript that refuses `moduleResolution: node`.
    expect(Number(version.split(".")[0]), `typescript ${version} from the registry`).toBeGreaterThanOrEqual(
      6,
    );
  }
  return dir;
}

/** The README's commands that set up a stack and run `pulumi up`, against this test's emulator. */
function readmeRunCommands(): string[][] {
  const lines = readmeBlock("sh", "pulumi config set --secret platform:apiToken dev-token")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "");
  expect(lines[0]).toBe("npx platform-emulator --port 4280 --token dev-token &");
  return lines.slice(1).map((line) => line.replace("http://127.0.0.1:4280", emulatorUrl).split(/\s+/));
}

/**
 * Walks the README in `dir`: the program type-checks (`tsc`, as an editor or a build does), then
 * the README's commands: stack init, config, a preview, `up`, then a preview that must be clean.
 */
function walkReadme(dir: string): { up: string; preview: string; again: string } {
  run(path.join(dir, "node_modules", ".bin", "tsc"), ["--noEmit", "-p", "."], dir);
  const commands = readmeRunCommands();
  const upIndex = commands.findIndex((c) => c[1] === "up");
  expect(commands[upIndex]).toEqual(["pulumi", "up"]);
  const outputs: string[] = [];
  for (const [command, ...args] of commands.slice(0, upIndex)) {
    expect(command).toBe("pulumi");
    outputs.push(pulumi(args, dir));
  }
  const preview = pulumi(["preview"], dir);
  const up = pulumi(["up", "--yes"], dir);
  const again = pulumi(["preview", "--expect-no-changes"], dir);
  for (const output of [...outputs, preview, up, again]) expectQuiet(output);
  return { up, preview, again };
}

/** `pulumi destroy` after lifting the restored volume's protection, as the README says. */
function destroy(dir: string): void {
  const refused = pulumi(["destroy", "--yes"], dir, false);
  expect(refused).toMatch(/protected/);
  expectQuiet(pulumi(["state", "unprotect", "--all", "--yes"], dir));
  const destroyed = pulumi(["destroy", "--yes"], dir);
  expectQuiet(destroyed);
  expect(destroyed).toMatch(/Resources:\s*\n\s*- 6 deleted/);
  expectQuiet(pulumi(["stack", "rm", "--yes"], dir));
}

/**
 * The emulator's volumes of `app`, the snapshots taken of them, and its certificates. A connection
 * of its own each time: minutes pass between two calls, and a kept-alive socket the emulator has
 * closed meanwhile fails the next write (EPIPE).
 */
async function platformState(app: string) {
  const agent = new Agent();
  const state = await createControlClient(emulatorUrl, "dev-token", { dispatcher: agent })
    .state()
    .finally(() => agent.close());
  const volumes = state.volumes.filter((v) => v.app === app);
  return {
    volumes: volumes
      .map((v) => ({ name: v.name, size_gb: v.size_gb }))
      .sort((a, b) => a.name.localeCompare(b.name)),
    snapshotsOf: state.snapshots
      .filter((s) => s.app === app)
      .map((s) => volumes.find((v) => v.id === s.volume_id)?.name ?? "(deleted)"),
    certificates: state.certificates.map((c) => c.hostname),
  };
}

beforeAll(async () => {
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-platform-first-hour-"));
  const nodeDir = path.join(workDir, "node-bin");
  fs.mkdirSync(nodeDir);
  fs.symlinkSync(
    fs.realpathSync(path.join(repoRoot, "node_modules", ".bin", "node")),
    path.join(nodeDir, "node"),
  );
  cliDir = ensurePulumiCli();
  backend = createOfflineBackend("first-hour");
  env = {
    ...process.env,
    PATH: userPath(cliDir, nodeDir),
    PULUMI_BACKEND_URL: backend.backendUrl,
    PULUMI_HOME: backend.pulumiHome,
    PULUMI_CONFIG_PASSPHRASE: "first-hour",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    // No download of a plugin named `platform` may be what makes these pass (nor reach the network).
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    npm_config_loglevel: "warn",
    npm_config_update_notifier: "false",
  };
  for (const name of ["PLATFORM_API_URL", "PLATFORM_API_TOKEN", "PULUMI_IGNORE_AMBIENT_PLUGINS"])
    delete env[name];

  // dist/ was just built by the e2e global setup; packing must not rebuild it.
  const packed = execFileSync("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", workDir], {
    cwd: repoRoot,
    env: { ...env, npm_config_loglevel: "error" },
    encoding: "utf8",
    maxBuffer: 16 * 1024 * 1024,
  });
  tarballName = path.basename((JSON.parse(packed) as [{ filename: string }])[0].filename);
  tarball = path.join(workDir, tarballName);

  // The emulator the installed package ships (its bin, as `npx platform-emulator` runs it), on a
  // free port with the README's token.
  const project = newProject("first-hour-dynamic", "today");
  emulator = spawn(
    path.join(project, "node_modules", ".bin", "platform-emulator"),
    ["--port", "0", "--token", "dev-token", "--task-socket", path.join(workDir, "api.sock"), "--quiet"],
    { cwd: project, env, stdio: ["ignore", "pipe", "inherit"] },
  );
  const stdout = emulator.stdout;
  if (!stdout) throw new Error("the emulator has no stdout");
  const [firstLine] = await new Promise<string[]>((resolve, reject) => {
    const lines = createInterface({ input: stdout });
    lines.once("line", (line) => resolve([line]));
    emulator?.once("exit", (code) =>
      reject(new Error(`the emulator exited ${code} before printing its URL`)),
    );
  });
  emulatorUrl = (JSON.parse(firstLine ?? "{}") as { url: string }).url;
  expect(emulatorUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
});

afterAll(() => {
  emulator?.kill("SIGTERM");
  backend?.remove();
  if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
});

describe("the README's first hour, from the packed tarball in a fresh folder", () => {
  it("the dynamic door: the README's program previews, goes up, previews clean and is destroyed", async () => {
    const dir = path.join(workDir, "first-hour-dynamic");
    fs.writeFileSync(path.join(dir, "index.ts"), readmeBlock("ts", 'from "pulumi-platform"'));
    const { up } = walkReadme(dir);
    expect(up).toMatch(/Resources:\s*\n\s*\+ 6 created/);
    expect(await platformState("demo-app")).toMatchObject({
      volumes: [
        { name: "data", size_gb: 10 },
        { name: "data_copy", size_gb: 10 },
      ],
      snapshotsOf: ["data"],
      certificates: ["*.example.com"],
    });
    destroy(dir);
    expect(await platformState("demo-app")).toMatchObject({ volumes: [], certificates: [] });
  });

  it("the plugin door: the same program from pulumi-platform/plugin, the plugin named in Pulumi.yaml", async () => {
    const dir = newProject("first-hour-plugin", "pinned");
    const program = readmeBlock("ts", 'from "pulumi-platform"').replace(
      'from "pulumi-platform";',
      'from "pulumi-platform/plugin";',
    );
    expect(program).toContain('from "pulumi-platform/plugin";');
    fs.writeFileSync(path.join(dir, "index.ts"), program);
    const plugins = readmeBlock("yaml", "providers:");
    fs.appendFileSync(path.join(dir, "Pulumi.yaml"), plugins);

    const { up } = walkReadme(dir);
    expect(up).toMatch(/Resources:\s*\n\s*\+ 6 created/);
    const stack = JSON.parse(pulumi(["stack", "export"], dir)) as {
      deployment: { resources: { type: string }[] };
    };
    expect(stack.deployment.resources.map((r) => r.type)).toContain("platform:index:Volume");
    expect(await platformState("demo-app")).toMatchObject({
      volumes: [
        { name: "data", size_gb: 10 },
        { name: "data_copy", size_gb: 10 },
      ],
      certificates: ["*.example.com"],
    });
    destroy(dir);
    expect(await platformState("demo-app")).toMatchObject({ volumes: [], certificates: [] });
  });

  it("with an older Node first on PATH, the first preview says so in one message, with how to get Node 22", () => {
    const dir = path.join(workDir, "first-hour-dynamic");
    fs.writeFileSync(path.join(dir, "index.ts"), readmeBlock("ts", 'from "pulumi-platform"'));
    const older = olderNode();
    const userEnv = env;
    env = { ...userEnv, PATH: userPath(cliDir, older.dir) };
    try {
      pulumi(["stack", "init", "older-node"], dir);
      const preview = pulumi(["preview"], dir, false);
      expect(preview).toContain(
        `pulumi-platform needs Node.js ${NODE_FLOOR} or later; this is Node.js ${older.version}`,
      );
      expect(preview).toContain("Put a newer node first on PATH");
      expect(preview).toContain("`nvm install 22`");
      // One message: no stack frame, and not Pulumi's "unhandled exception" wrapper around one.
      expect(preview).not.toMatch(/^\s+at /m);
      expect(preview).not.toContain("unhandled exception");
      pulumi(["stack", "rm", "--yes", "older-node"], dir);
    } finally {
      env = userEnv;
    }
  });
});
