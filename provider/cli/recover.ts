/**
 * `pulumi-platform recover` (placeholder until implemented).
 * @module
 */

/** Runs the command with its arguments; resolves to the process exit code. */
export async function run(_argv: string[]): Promise<number> {
  process.stderr.write("pulumi-platform recover: not implemented yet\n");
  return 1;
}
