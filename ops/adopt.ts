/**
 * `pulumi-platform adopt --app <name>`: reads an app's volumes and certificates through the sdk
 * and writes a TypeScript module that declares each one with its adoption input set, so that the
 * first `pulumi up` takes them under management without creating or changing anything
 * (`pulumi import` does not work for dynamic resources, pulumi/pulumi#16175).
 *
 * Exit codes: 0 written; 1 the platform refused or could not be reached (401, 404 unknown app,
 * network); 2 usage (bad or missing option, no credentials); 3 nothing to adopt.
 * @module
 */
import fs from "node:fs";
import path from "node:path";
import { resolveCredentials } from "../provider/model/credentials-resolver";
import { ApiError, InvalidArgumentError, isNotFound, PlatformClient, PlatformError } from "../sdk";
import { type AdoptionFamily, readAdoptionPlan } from "./adoption-plan";
import { renderJson, renderTypeScript } from "./adoption-program";
import { parseCommandLine, UsageError } from "./command-line";

/** Where the command writes and which environment it reads; the process's by default. */
export interface CommandIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: NodeJS.ProcessEnv;
}

/** Exit codes of `pulumi-platform adopt`. */
export const ADOPT_EXIT = { ok: 0, platform: 1, usage: 2, nothingToAdopt: 3 } as const;

const HELP = `usage: pulumi-platform adopt --app <name> [options]

Reads every volume and every hostname (with its certificate kinds) of an app and writes a Pulumi
TypeScript module that declares each one with its adoption input (adoptVolumeId, adoptExisting)
and the settings it has today. The first \`pulumi up\` of that module creates and changes nothing.

options:
  --app <name>            app to read (required)
  --out <file>            write the module to <file> (default: standard output)
  --format ts|json        TypeScript module (default) or the same plan as JSON for tooling
  --filter <text>         only volumes whose name or id, and hostnames, contain <text>
  --only volumes|certificates
                          only one family
  --delete-on-destroy     leave out retainOnDelete: \`pulumi destroy\` then deletes what was
                          adopted (default: destroy only forgets it, the platform keeps it)
  --api-url <url>         platform API URL (default: PLATFORM_API_URL)
  --api-token <token>     API token (default: PLATFORM_API_TOKEN; prefer the variable, a flag
                          is visible in the process list)
  -h, --help              this help

Custom certificates: the platform never returns private keys, so each CustomCertificate reads
its PEM chain and key from stack config names printed in the module; set them before \`pulumi up\`.

exit codes: 0 written, 1 platform or authentication error, 2 usage, 3 nothing to adopt

example:
  PLATFORM_API_URL=https://api.example.com PLATFORM_API_TOKEN=... \\
    npx pulumi-platform adopt --app my-app --out adopted.ts
`;

const processIo: CommandIo = {
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
  env: process.env,
};

interface AdoptOptions {
  app: string;
  out?: string;
  format: "ts" | "json";
  filter?: string;
  only?: AdoptionFamily;
  deleteOnDestroy: boolean;
  apiUrl: string;
  apiToken: string;
}

function optionsOf(argv: string[], env: NodeJS.ProcessEnv): AdoptOptions | "help" {
  const values = parseCommandLine(argv, {
    app: { type: "string" },
    out: { type: "string" },
    format: { type: "string" },
    filter: { type: "string" },
    only: { type: "string" },
    "delete-on-destroy": { type: "boolean" },
    "api-url": { type: "string" },
    "api-token": { type: "string" },
    help: { type: "boolean", short: "h" },
  });
  if (values.help) return "help";
  const app = values.app;
  if (typeof app !== "string" || app.trim() === "") throw new UsageError("--app <name> is required");
  const format = values.format ?? "ts";
  if (format !== "ts" && format !== "json") {
    throw new UsageError(`--format must be ts or json (got "${String(format)}")`);
  }
  const only = values.only;
  if (only !== undefined && only !== "volumes" && only !== "certificates") {
    throw new UsageError(`--only must be volumes or certificates (got "${String(only)}")`);
  }
  const out = values.out;
  if (out !== undefined && (typeof out !== "string" || out === ""))
    throw new UsageError("--out needs a file name");
  // No stack here: the flags, else the environment.
  const credentials = resolveCredentials({
    args: { apiUrl: str(values["api-url"]), apiToken: str(values["api-token"]) },
    argNames: { apiUrl: "--api-url", apiToken: "--api-token" },
    env,
  });
  if (!credentials.ok) throw new UsageError(credentials.problems.join("; "));
  return {
    app: app.trim(),
    format,
    deleteOnDestroy: values["delete-on-destroy"] === true,
    apiUrl: credentials.apiUrl,
    apiToken: credentials.apiToken,
    ...(typeof out === "string" ? { out } : {}),
    ...(typeof values.filter === "string" && values.filter !== "" ? { filter: values.filter } : {}),
    ...(only ? { only } : {}),
  };
}

function str(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/** Runs the command with its arguments; resolves to the process exit code. */
export async function run(argv: string[], io: CommandIo = processIo): Promise<number> {
  let options: AdoptOptions | "help";
  try {
    options = optionsOf(argv, io.env);
  } catch (err) {
    io.stderr(
      `pulumi-platform adopt: ${(err as Error).message}\nRun \`pulumi-platform adopt --help\` for the options.\n`,
    );
    return ADOPT_EXIT.usage;
  }
  if (options === "help") {
    io.stdout(HELP);
    return ADOPT_EXIT.ok;
  }
  let client: PlatformClient;
  try {
    client = new PlatformClient({
      baseUrl: options.apiUrl,
      token: options.apiToken,
      userAgent: "pulumi-platform-adopt",
    });
  } catch (err) {
    io.stderr(`pulumi-platform adopt: ${(err as Error).message}\n`);
    return err instanceof InvalidArgumentError ? ADOPT_EXIT.usage : ADOPT_EXIT.platform;
  }
  try {
    const plan = await readAdoptionPlan(client, {
      app: options.app,
      ...(options.filter ? { filter: options.filter } : {}),
      ...(options.only ? { only: options.only } : {}),
    });
    if (plan.volumes.length === 0 && plan.certificates.length === 0) {
      const what =
        options.only === "volumes"
          ? "no volumes"
          : options.only === "certificates"
            ? "no certificates"
            : "no volumes and no certificates";
      const matching = options.filter ? ` matching --filter "${options.filter}"` : "";
      const skipped =
        plan.skipped.length > 0
          ? ` (not adoptable: ${plan.skipped.map((s) => `${s.what}: ${s.reason}`).join("; ")})`
          : "";
      io.stderr(
        `pulumi-platform adopt: app "${options.app}" has ${what}${matching}: nothing to adopt, nothing written${skipped}\n`,
      );
      return ADOPT_EXIT.nothingToAdopt;
    }
    const render = { deleteOnDestroy: options.deleteOnDestroy };
    const text = options.format === "json" ? renderJson(plan, render) : renderTypeScript(plan, render);
    if (options.out) writeAtomically(options.out, text);
    else io.stdout(text);
    const custom = plan.certificates.filter((c) => c.kind === "custom");
    const where = options.out ? `wrote ${options.out}` : "written to standard output";
    let summary = `pulumi-platform adopt: ${where}: ${count(plan.volumes.length, "volume")}, ${count(plan.certificates.length, "certificate")} of app "${options.app}"`;
    if (custom.length > 0 && options.format === "ts") {
      summary += `; set the stack config of ${count(custom.length, "custom certificate")} before \`pulumi up\`: ${custom
        .flatMap((c) => (c.config ? [c.config.fullchain, `${c.config.privateKey} (--secret)`] : []))
        .join(", ")}`;
    }
    io.stderr(`${summary}\n`);
    return ADOPT_EXIT.ok;
  } catch (err) {
    io.stderr(`pulumi-platform adopt: ${describeFailure(err, options)}\n`);
    return err instanceof UsageError ? ADOPT_EXIT.usage : ADOPT_EXIT.platform;
  } finally {
    await client.close();
  }
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

/** The failure in the user's terms; the token never appears (the sdk keeps it out of errors). */
function describeFailure(err: unknown, options: AdoptOptions): string {
  if (err instanceof ApiError) {
    if (err.status === 401) {
      return `the platform at ${options.apiUrl} refused the API token (401: ${err.platformMessage || "unauthorized"}). Check PLATFORM_API_TOKEN or --api-token`;
    }
    if (err.status === 403) {
      return `the API token may not read app "${options.app}" (403: ${err.platformMessage || "forbidden"})`;
    }
    if (isNotFound(err) && /^\/v1\/apps\/[^/]+\/(volumes|certificates)$/.test(err.path)) {
      return `app "${options.app}" not found at ${options.apiUrl} (404: ${err.platformMessage || "not found"}). Check --app and that the token's organization holds it`;
    }
    return `reading app "${options.app}" failed: ${err.message}`;
  }
  if (err instanceof PlatformError)
    return `cannot read app "${options.app}" at ${options.apiUrl}: ${err.message}`;
  if (err instanceof Error && "code" in err && typeof err.code === "string" && err.code.startsWith("E")) {
    return `cannot write ${options.out ?? "the output"}: ${err.message}`;
  }
  return err instanceof Error ? err.message : String(err);
}

/** Writes through a temporary file in the same directory, so a failure leaves no half file. */
function writeAtomically(file: string, text: string): void {
  const target = path.resolve(file);
  const tmp = path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.tmp`);
  try {
    fs.writeFileSync(tmp, text);
    fs.renameSync(tmp, target);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
}
