/**
 * Fewer CLI processes after each engine command of the e2e tests (a vitest setup file of the e2e
 * project). The Automation API follows every `up` with `stack output --json`, `stack output --json
 * --show-secrets` and `stack history --show-secrets`, and every `refresh`/`destroy` with the
 * history: each a CLI start, and those with secrets one passphrase key derivation (PBKDF2, a
 * million rounds) more. Measured on one stack: 1.67 s of CPU after an `up`, 1.0 s with these, the
 * same outputs and summary. Tests read outputs and the update summary, never the history's
 * decrypted config. And `PulumiCommand.get` runs `pulumi version` (0.3 s) once per CLI, not per stack.
 */
import { LocalWorkspace, type OutputMap, PulumiCommand, Stack } from "@pulumi/pulumi/automation";

/** How `pulumi stack export --show-secrets` writes a secret value. */
const SECRET_SIG = "4dabf18193072939515e22adb298388d";

interface ExportedResource {
  type: string;
  outputs?: Record<string, unknown>;
}

/** A value of the export with its secrets opened; `secret` when the whole value was one. */
function opened(value: unknown): { value: unknown; secret: boolean } {
  if (value && typeof value === "object" && !Array.isArray(value)) {
    const record = value as Record<string, unknown>;
    if (SECRET_SIG in record && typeof record.plaintext === "string") {
      return { value: opened(JSON.parse(record.plaintext)).value, secret: true };
    }
    return {
      value: Object.fromEntries(Object.entries(record).map(([k, v]) => [k, opened(v).value])),
      secret: false,
    };
  }
  if (Array.isArray(value)) return { value: value.map((v) => opened(v).value), secret: false };
  return { value, secret: false };
}

type RunPulumiCmd = (args: string[]) => Promise<{ stdout: string }>;

// One `stack export --show-secrets` instead of two `stack output` runs: the root stack's outputs,
// each secret as the CLI marks it (a value that holds a secret is a secret as a whole).
LocalWorkspace.prototype.stackOutputs = async function (
  this: LocalWorkspace,
  stackName: string,
): Promise<OutputMap> {
  const run = (this as unknown as { runPulumiCmd: RunPulumiCmd }).runPulumiCmd.bind(this);
  const { stdout } = await run(["stack", "export", "--show-secrets", "--stack", stackName]);
  const resources = (JSON.parse(stdout) as { deployment?: { resources?: ExportedResource[] } }).deployment
    ?.resources;
  const root = resources?.find((r) => r.type === "pulumi:pulumi:Stack");
  return Object.fromEntries(Object.entries(root?.outputs ?? {}).map(([key, value]) => [key, opened(value)]));
};

// The update summary without decrypting the stack's config (a test that asks keeps asking).
const info = Stack.prototype.info;
Stack.prototype.info = function (this: Stack, showSecrets?: boolean) {
  return info.call(this, showSecrets ?? false);
};

// `pulumi version` once per CLI directory and test file, not once per stack.
const get = PulumiCommand.get.bind(PulumiCommand);
const commands = new Map<string, Promise<PulumiCommand>>();
PulumiCommand.get = (opts) => {
  const key = JSON.stringify(opts ?? {});
  let command = commands.get(key);
  if (!command) {
    command = get(opts);
    commands.set(key, command);
    command.catch(() => commands.delete(key));
  }
  return command;
};
