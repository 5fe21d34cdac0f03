import { LocalWorkspace, PulumiCommand } from "@pulumi/pulumi/automation";
import { AcmeCertificate, Volume } from "pulumi-platform";
import { recoverStack } from "pulumi-platform/ops";

/** What one stack of the fleet holds: a volume and a certificate of its app. */
export function appProgram(app: string) {
  return async () => {
    const data = new Volume("data", { app, name: "data", region: "iad", sizeGb: 1 });
    const www = new AcmeCertificate("www", { app, hostname: `www.${app}.example.com` });
    return { volumeId: data.volumeId, certificateStatus: www.status };
  };
}

/** The outcome of one stack. */
export interface StackResult {
  app: string;
  stack: string;
  ok: boolean;
  /** Engine resource changes of the update (`same`, `create`, `delete`, ...). */
  changes: Record<string, number>;
  seconds: number;
  /** Runs it took: a failed stack is run once more (a lock or a connection lost on the way). */
  attempts: number;
  /** Why the first run failed, when it needed a second one. */
  firstError?: string;
  error?: string;
}

export interface FleetOptions {
  apps: string[];
  concurrency: number;
  destroy: boolean;
  /** Directory holding Pulumi.yaml (where the dynamic provider resolves `pulumi-platform`). */
  workDir: string;
  /** Directory of the `pulumi` binary; the one on PATH when absent. */
  cliDir?: string;
  /** Environment for the CLI: PULUMI_BACKEND_URL, PULUMI_CONFIG_PASSPHRASE, PLATFORM_API_*. */
  env: Record<string, string>;
  /** Called when a stack starts or ends. */
  onProgress?: (event: { app: string; state: "running" | "done" | "failed"; result?: StackResult }) => void;
}

/** Rolls (or destroys) one stack per app, at most `concurrency` at a time. */
export async function runFleet(options: FleetOptions): Promise<StackResult[]> {
  const pulumiCommand = options.cliDir
    ? await PulumiCommand.get({ root: options.cliDir.replace(/\/bin\/?$/, ""), skipVersionCheck: true })
    : undefined;
  const results: StackResult[] = [];
  const queue = [...options.apps];
  const worker = async () => {
    for (let app = queue.shift(); app !== undefined; app = queue.shift()) {
      options.onProgress?.({ app, state: "running" });
      let result = await runOne(app, options, pulumiCommand);
      if (!result.ok) {
        const again = await runOne(app, options, pulumiCommand);
        result = { ...again, attempts: 2, seconds: result.seconds + again.seconds, firstError: result.error };
      }
      results.push(result);
      options.onProgress?.({ app, state: result.ok ? "done" : "failed", result });
    }
  };
  await Promise.all(
    Array.from({ length: Math.max(1, Math.min(options.concurrency, options.apps.length)) }, worker),
  );
  return results.sort((a, b) => a.app.localeCompare(b.app));
}

async function runOne(
  app: string,
  options: FleetOptions,
  pulumiCommand?: PulumiCommand,
): Promise<StackResult> {
  const started = Date.now();
  const stackName = app;
  try {
    const stack = await LocalWorkspace.createOrSelectStack(
      { stackName, projectName: "fleet", program: appProgram(app) },
      { workDir: options.workDir, envVars: options.env, ...(pulumiCommand ? { pulumiCommand } : {}) },
    );
    let changes: Record<string, number>;
    if (options.destroy) {
      const res = await stack.destroy();
      changes = res.summary.resourceChanges ?? {};
      await stack.workspace.removeStack(stackName);
    } else {
      // A run killed before (a lost runner) left pending creates and a lock: recover first. With
      // nothing pending this is one stack export; a live update's lock is never removed.
      await recoverStack(stack, { unlockIfStale: true });
      const res = await stack.up();
      changes = res.summary.resourceChanges ?? {};
    }
    return { app, stack: stackName, ok: true, changes, seconds: (Date.now() - started) / 1000, attempts: 1 };
  } catch (err) {
    const message = String((err as Error).message ?? err);
    const error =
      message
        .split("\n")
        .find((l) => /error:/.test(l))
        ?.trim() ?? message.slice(0, 300);
    return {
      app,
      stack: stackName,
      ok: false,
      changes: {},
      seconds: (Date.now() - started) / 1000,
      attempts: 1,
      error,
    };
  }
}
