import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { tempDir } from "./emulator";

const run = promisify(execFile);

/**
 * A Pulumi YAML program (`runtime: yaml`) in a directory of its own, whose resources the plugin
 * `pulumi-resource-platform` serves (found on PATH from node_modules/.bin, see the engine env).
 */
export function yamlProgram(name: string, body: string): { dir: string; write(body: string): void } {
  const dir = tempDir(`${name}-`);
  const write = (text: string) =>
    fs.writeFileSync(path.join(dir, "Pulumi.yaml"), `name: ${name}\nruntime: yaml\n${text}`);
  write(body);
  return { dir, write };
}

/**
 * Runs `pulumi` with `args` in `dir` (for the stack `stackName` when one is given) and returns
 * what it printed on stdout.
 */
export async function pulumiCli(
  ctx: { env: Record<string, string>; cliDir: string },
  stackName: string | undefined,
  dir: string,
  args: string[],
): Promise<string> {
  const stack = stackName === undefined ? [] : ["--stack", stackName];
  const { stdout } = await run(path.join(ctx.cliDir, "pulumi"), [...args, ...stack], {
    cwd: dir,
    env: { ...process.env, ...ctx.env },
    maxBuffer: 64 * 1024 * 1024,
  });
  return stdout;
}

/**
 * Runs `pulumi` like {@link pulumiCli} but never throws: whether it succeeded, and everything it
 * printed (stdout and stderr), for tests of what a user reads.
 */
export async function pulumiCliTranscript(
  ctx: { env: Record<string, string>; cliDir: string },
  stackName: string | undefined,
  dir: string,
  args: string[],
): Promise<{ ok: boolean; output: string }> {
  const stack = stackName === undefined ? [] : ["--stack", stackName];
  try {
    const { stdout, stderr } = await run(path.join(ctx.cliDir, "pulumi"), [...args, ...stack], {
      cwd: dir,
      env: { ...process.env, ...ctx.env },
      maxBuffer: 64 * 1024 * 1024,
    });
    return { ok: true, output: `${stdout}\n${stderr}` };
  } catch (err) {
    const failed = err as { stdout?: string; stderr?: string; message: string };
    return { ok: false, output: `${failed.stdout ?? ""}\n${failed.stderr ?? ""}\n${failed.message}` };
  }
}
