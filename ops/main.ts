#!/usr/bin/env node
/**
 * The `pulumi-platform` command shipped in the package (`npx pulumi-platform <command>`):
 * operations on a stack and an app that do not fit a `pulumi up`. Each subcommand lives in its
 * own module and is loaded only when named, so `--help` stays instant.
 * @module
 */
// An older Node stops here with one line saying what to do.
import "../sdk/node-floor-bin";

const COMMANDS: Record<
  string,
  { summary: string; load: () => Promise<{ run(argv: string[]): Promise<number> }> }
> = {
  adopt: {
    summary: "write a Pulumi program that takes an app's existing volumes and certificates under management",
    load: () => import("./adopt"),
  },
  recover: {
    summary:
      "after an interrupted `pulumi up`, find what it created that the stack does not own and import or delete it",
    load: () => import("./recover"),
  },
};

function usage(): string {
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(10)}${c.summary}`);
  return `usage: pulumi-platform <command> [options]\n\ncommands:\n${lines.join("\n")}\n\nRun \`pulumi-platform <command> --help\` for a command's options.`;
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    process.stdout.write(`${usage()}\n`);
    return name === undefined ? 2 : 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    process.stderr.write(`pulumi-platform: unknown command "${name}"\n\n${usage()}\n`);
    return 2;
  }
  return (await command.load()).run(rest);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`pulumi-platform: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
