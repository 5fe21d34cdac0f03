import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { LocalWorkspace, PulumiCommand, type PulumiFn, type Stack } from "@pulumi/pulumi/automation";
import {
  createOfflineBackend,
  ensurePulumiCli,
  offlineEngineEnv,
  repoRoot,
} from "../../scripts/lib/pulumi-engine";

export type ConfigValue = string | { value: string; secret?: boolean };

export interface StackOptions {
  /** Directory holding Pulumi.yaml and index.ts (inside the repo, so `pulumi-platform` resolves). */
  programDir: string;
  /** Defaults to a unique name, so several stacks of one program can exist at once. */
  stackName?: string;
  config?: Record<string, ConfigValue>;
  /** Extra environment for the CLI, the program and the dynamic provider. */
  env?: Record<string, string>;
}

export interface StackContext {
  stack: Stack;
  /** Environment the CLI runs with (for spawning `pulumi` by hand). */
  env: Record<string, string>;
  cliDir: string;
}

/** Keys a developer's shell may carry that must not leak into a hermetic test stack. */
const AMBIENT_KEYS = ["PLATFORM_API_TOKEN", "PLATFORM_API_URL", "PULUMI_ACCESS_TOKEN", "PULUMI_BACKEND_URL"];

const PROGRAMS_DIR = path.resolve(__dirname, "..", "e2e", "programs");
const EXAMPLES_DIR = path.resolve(__dirname, "..", "..", "examples");

/**
 * Whether a program's TypeScript is type-checked elsewhere, so that ts-node need not check it
 * again on every command (`PULUMI_NODEJS_TRANSPILE_ONLY`: about 2 s of CPU per preview, up or
 * refresh, a third of provider-volume.test.ts's CPU). The fixtures under test/e2e/programs are
 * checked by `npm run typecheck` (tsconfig.check.json), the examples by examples.test.ts ("every
 * example type-checks with its own tsconfig"). Every other program keeps ts-node's check: adopt's
 * imports the code its test generates, the consumer's and the upgrade fixtures' compile against
 * the published package.
 */
export function typeCheckedElsewhere(programDir: string): boolean {
  const dir = path.resolve(programDir);
  const under = (root: string) => path.dirname(dir) === root;
  return (under(PROGRAMS_DIR) && path.basename(dir) !== "adopt") || under(EXAMPLES_DIR);
}

/**
 * Runs `fn` with an Automation API stack of the program in `programDir`, on a fresh file backend
 * and the locally built CLI; removes the stack, its settings file and the backend afterwards.
 */
export async function withStack<T>(options: StackOptions, fn: (ctx: StackContext) => Promise<T>): Promise<T> {
  const cliDir = ensurePulumiCli();
  const backend = createOfflineBackend("test");
  const env: Record<string, string> = {
    ...offlineEngineEnv(backend, cliDir),
    // PULUMI_NODEJS_TRANSPILE_ONLY=false in the environment keeps ts-node's check for every program.
    ...(typeCheckedElsewhere(options.programDir) && process.env.PULUMI_NODEJS_TRANSPILE_ONLY !== "false"
      ? { PULUMI_NODEJS_TRANSPILE_ONLY: "true" }
      : {}),
    ...(options.env ?? {}),
  };
  for (const key of AMBIENT_KEYS) if (!(key in env)) delete process.env[key];
  const stackName = options.stackName ?? `t${randomBytes(4).toString("hex")}`;
  const pulumiCommand = await PulumiCommand.get({ root: path.dirname(cliDir), skipVersionCheck: true });
  const stack = await LocalWorkspace.createStack(
    { stackName, workDir: options.programDir },
    { pulumiCommand, envVars: env, pulumiHome: backend.pulumiHome },
  );
  try {
    await setConfig(stack, options.config);
    return await fn({ stack, env, cliDir });
  } finally {
    await stack.workspace.removeStack(stackName, { force: true }).catch(() => undefined);
    fs.rmSync(path.join(options.programDir, `Pulumi.${stackName}.yaml`), { force: true });
    backend.remove();
  }
}

async function setConfig(stack: Stack, config: Record<string, ConfigValue> | undefined): Promise<void> {
  const entries = Object.entries(config ?? {});
  if (entries.length === 0) return;
  await stack.setAllConfig(
    Object.fromEntries(
      entries.map(([k, v]) => [
        k,
        typeof v === "string" ? { value: v } : { value: v.value, secret: !!v.secret },
      ]),
    ),
  );
}

/** A plugin a project names in its Pulumi.yaml (`plugins.providers` / `plugins.analyzers`). */
export interface ProjectPlugin {
  name: string;
  /** The directory holding the executable (`pulumi-resource-<name>`, `pulumi-analyzer-<name>`). */
  path: string;
}

export interface InlineStackOptions {
  projectName: string;
  /** The program, run in this process (the CLI connects to the Automation API's language server). */
  program: PulumiFn;
  /** Defaults to a unique name. */
  stackName?: string;
  config?: Record<string, ConfigValue>;
  /** Extra environment for the CLI and the plugins it starts (not for the program: it runs here). */
  env?: Record<string, string>;
  /** The project's `plugins` section: where the CLI finds these plugins, with no PATH and no notice. */
  plugins?: { providers?: ProjectPlugin[]; analyzers?: ProjectPlugin[] };
  /** The directory holding `pulumi` (default: the CLI scripts/ensure-pulumi gives). */
  cliDir?: string;
  /** The CLI's PATH instead of {@link offlineEngineEnv}'s (which starts with the CLI directory). */
  path?: string;
}

/**
 * Runs `fn` with an Automation API stack of an INLINE program (`LocalWorkspace.createOrSelectStack`
 * with `program`): the program runs in this process, which serves the language runtime the CLI
 * connects to, so no `pulumi-language-nodejs` runs it (the legacy host scripts/ensure-pulumi may
 * build lacks stack transforms; see docs/plugin.md). The project lives in a temporary directory
 * whose `node_modules` is a link to this checkout's, so that the processes the CLI starts there
 * (the dynamic provider host, which requires `pulumi-platform/provider/runtime` from the
 * project's directory) find the package as in a user's project. Removes the stack, the directory
 * and the backend afterwards.
 */
export async function withInlineStack<T>(
  options: InlineStackOptions,
  fn: (ctx: StackContext) => Promise<T>,
): Promise<T> {
  const cliDir = options.cliDir ?? ensurePulumiCli();
  const backend = createOfflineBackend("inline");
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), `pulumi-platform-${options.projectName}-`));
  fs.symlinkSync(path.join(repoRoot, "node_modules"), path.join(workDir, "node_modules"), "dir");
  // JSON is YAML: the project as a user would write it, plus the plugins named.
  fs.writeFileSync(
    path.join(workDir, "Pulumi.yaml"),
    `${JSON.stringify({ name: options.projectName, runtime: "nodejs", ...(options.plugins ? { plugins: options.plugins } : {}) }, null, 2)}\n`,
  );
  const env: Record<string, string> = {
    ...offlineEngineEnv(backend, cliDir),
    ...(options.path !== undefined ? { PATH: options.path } : {}),
    ...(options.env ?? {}),
  };
  for (const key of AMBIENT_KEYS) if (!(key in env)) delete process.env[key];
  const stackName = options.stackName ?? `t${randomBytes(4).toString("hex")}`;
  try {
    const pulumiCommand = await PulumiCommand.get({ root: path.dirname(cliDir), skipVersionCheck: true });
    const stack = await LocalWorkspace.createOrSelectStack(
      { stackName, projectName: options.projectName, program: options.program },
      { workDir, pulumiCommand, envVars: env, pulumiHome: backend.pulumiHome },
    );
    try {
      await setConfig(stack, options.config);
      return await fn({ stack, env, cliDir });
    } finally {
      await stack.workspace.removeStack(stackName, { force: true }).catch(() => undefined);
    }
  } finally {
    fs.rmSync(workDir, { recursive: true, force: true });
    backend.remove();
  }
}

/** Absolute path of a program fixture under test/e2e/programs. */
export function programPath(name: string): string {
  return path.resolve(__dirname, "..", "e2e", "programs", name);
}
