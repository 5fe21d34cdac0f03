import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { LocalWorkspace, PulumiCommand, type Stack } from "@pulumi/pulumi/automation";
import { createOfflineBackend, ensurePulumiCli, offlineEngineEnv } from "../../scripts/lib/pulumi-engine";

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
    const entries = Object.entries(options.config ?? {});
    if (entries.length > 0) {
      await stack.setAllConfig(
        Object.fromEntries(
          entries.map(([k, v]) => [
            k,
            typeof v === "string" ? { value: v } : { value: v.value, secret: !!v.secret },
          ]),
        ),
      );
    }
    return await fn({ stack, env, cliDir });
  } finally {
    await stack.workspace.removeStack(stackName, { force: true }).catch(() => undefined);
    fs.rmSync(path.join(options.programDir, `Pulumi.${stackName}.yaml`), { force: true });
    backend.remove();
  }
}

/** Absolute path of a program fixture under test/e2e/programs. */
export function programPath(name: string): string {
  return path.resolve(__dirname, "..", "e2e", "programs", name);
}
