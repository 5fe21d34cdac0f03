/**
 * What every `pulumi-platform` command shares about its command line: strict option parsing
 * (no positionals) whose mistakes are usage errors (their own exit code and message).
 * @module
 */
import { type ParseArgsOptionsConfig, parseArgs } from "node:util";

/** A command used wrongly: the message says how; the command exits with its usage code. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

/** The option values of `argv`, or a {@link UsageError} naming what is wrong with them. */
export function parseCommandLine(
  argv: string[],
  options: ParseArgsOptionsConfig,
): Record<string, string | boolean | undefined> {
  try {
    return parseArgs({ args: argv, strict: true, allowPositionals: false, options }).values as Record<
      string,
      string | boolean | undefined
    >;
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}
