/**
 * `pulumi-platform recover`: after an interrupted `pulumi up` (a killed CLI, a lost CI runner),
 * the checkpoint holds pending creates whose ids Pulumi never learned, and the next `up` would
 * create them again. This reads the checkpoint (`pulumi stack export`), finds for each pending
 * create what it made at the platform that no resource of the stack owns, shows the plan, and
 * then imports those into the stack (`pulumi stack import`; `--delete`: deletes them at the
 * platform instead) and drops the pending creates that made nothing. Then `pulumi up` converges.
 *
 * Exit codes: 0 recovered or nothing to recover; 1 pulumi or the platform failed; 2 usage or no
 * credentials; 3 not applied (no --yes and no terminal to confirm on, or declined) or some
 * pending creates are ambiguous and were left for you.
 * @module
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline/promises";
import { isNotFound, PlatformClient } from "../../sdk";
import * as runtime from "../runtime";
import { withTokenAdvice } from "../runtime/errors";
import { parseCommandLine, UsageError } from "./command-line";
import { applyRecovery } from "./recover-checkpoint";
import {
  type ExportedDeployment,
  type PendingAction,
  type PlatformLookups,
  planRecovery,
} from "./recover-plan";

/** Exit codes of `pulumi-platform recover`. */
export const RECOVER_EXIT = { ok: 0, failed: 1, usage: 2, notApplied: 3 } as const;

const HELP = `usage: pulumi-platform recover [options]

After an interrupted \`pulumi up\`, finds what its pending creates made at the platform that no
resource of the stack owns, shows the plan, then imports those into the stack (or deletes them
with --delete) and drops the pending creates that made nothing. Run \`pulumi up\` afterwards.

options:
  --stack <name>     the stack (default: the selected stack)
  --cwd <dir>        the Pulumi project directory (default: the current directory)
  --delete           delete what the interrupted up made, instead of importing it
  --unlock           first remove the lock the killed update left (\`pulumi cancel\`); only
                     when no other update of this stack is running
  --yes              apply without asking
  -h, --help         this help

Credentials: the stack config (platform:apiUrl, platform:apiToken), else PLATFORM_API_URL and
PLATFORM_API_TOKEN. The checkpoint before the change is saved to a file first (path printed).

exit codes: 0 recovered or nothing to do, 1 pulumi or platform failure, 2 usage or no credentials,
3 not applied (declined, no --yes without a terminal) or ambiguous creates left for you
`;

interface RecoverOptions {
  stack?: string;
  cwd: string;
  delete: boolean;
  unlock: boolean;
  yes: boolean;
}

function optionsOf(argv: string[]): RecoverOptions | "help" {
  const values = parseCommandLine(argv, {
    stack: { type: "string" },
    cwd: { type: "string" },
    delete: { type: "boolean" },
    unlock: { type: "boolean" },
    yes: { type: "boolean", short: "y" },
    help: { type: "boolean", short: "h" },
  });
  if (values.help) return "help";
  return {
    cwd: path.resolve(typeof values.cwd === "string" ? values.cwd : "."),
    delete: values.delete === true,
    unlock: values.unlock === true,
    yes: values.yes === true,
    ...(typeof values.stack === "string" && values.stack !== "" ? { stack: values.stack } : {}),
  };
}

function pulumi(options: RecoverOptions, args: string[]): string {
  const stack = options.stack ? ["--stack", options.stack] : [];
  try {
    return execFileSync("pulumi", [...args, ...stack], {
      cwd: options.cwd,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      maxBuffer: 512 * 1024 * 1024,
    });
  } catch (err) {
    const stderr = String((err as { stderr?: unknown }).stderr ?? "").trim();
    throw new Error(`\`pulumi ${args.join(" ")}\` failed: ${stderr || (err as Error).message}`);
  }
}

/** A stack config value, or undefined when the key is not set. */
function stackConfig(options: RecoverOptions, key: string): string | undefined {
  try {
    const value = pulumi(options, ["config", "get", key]).trim();
    return value === "" ? undefined : value;
  } catch {
    return undefined;
  }
}

function credentials(options: RecoverOptions): { apiUrl: string; apiToken: string } {
  const apiUrl = stackConfig(options, "platform:apiUrl") ?? process.env.PLATFORM_API_URL?.trim();
  const apiToken = stackConfig(options, "platform:apiToken") ?? process.env.PLATFORM_API_TOKEN?.trim();
  if (!apiUrl)
    throw new UsageError("no platform API URL: set platform:apiUrl in the stack config or PLATFORM_API_URL");
  if (!apiToken)
    throw new UsageError(
      "no platform API token: set platform:apiToken in the stack config or PLATFORM_API_TOKEN",
    );
  return { apiUrl, apiToken };
}

function lookups(client: PlatformClient): PlatformLookups {
  return {
    volumes: (app) => client.volumes.list(app),
    hostname: async (app, hostname) => {
      try {
        const d = await client.certificates.get(app, hostname);
        return { acme: d.acme_requested, custom: d.certificates.some((c) => c.source === "custom") };
      } catch (err) {
        if (isNotFound(err)) return undefined;
        throw err;
      }
    },
  };
}

function describe(plan: PendingAction[], deleting: boolean): string {
  const lines = plan.map((p) => {
    if (p.action === "import") return `  ${deleting ? "delete" : "import"}  ${p.urn}\n          ${p.what}`;
    if (p.action === "clear") return `  clear   ${p.urn}\n          ${p.why}`;
    return `  LEFT    ${p.urn}\n          more than one candidate, decide yourself: ${p.candidates.join(", ")}`;
  });
  return lines.join("\n");
}

async function confirmed(options: RecoverOptions, write: (t: string) => void): Promise<boolean> {
  if (options.yes) return true;
  if (!process.stdin.isTTY) {
    write("Not applied: run again with --yes to apply this plan.\n");
    return false;
  }
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return /^y(es)?$/i.test((await rl.question("Apply this plan? [y/N] ")).trim());
  } finally {
    rl.close();
  }
}

/** Runs the command with its arguments; resolves to the process exit code. */
export async function run(argv: string[]): Promise<number> {
  const out = (t: string) => process.stdout.write(t);
  const err = (t: string) => process.stderr.write(t);
  let options: RecoverOptions | "help";
  let creds: { apiUrl: string; apiToken: string };
  try {
    options = optionsOf(argv);
    if (options === "help") {
      out(HELP);
      return RECOVER_EXIT.ok;
    }
    creds = credentials(options);
  } catch (e) {
    err(`pulumi-platform recover: ${(e as Error).message}\n`);
    return e instanceof UsageError ? RECOVER_EXIT.usage : RECOVER_EXIT.failed;
  }
  const client = new PlatformClient({
    baseUrl: creds.apiUrl,
    token: creds.apiToken,
    userAgent: "pulumi-platform-recover",
  });
  try {
    const exported = JSON.parse(pulumi(options, ["stack", "export"])) as ExportedDeployment;
    const plan = await planRecovery(exported, lookups(client));
    if (plan.length === 0) {
      out("pulumi-platform recover: no pending creates of pulumi-platform resources; nothing to do.\n");
      return RECOVER_EXIT.ok;
    }
    out(
      `pulumi-platform recover: ${plan.length} pending create(s) of an interrupted \`pulumi up\`:\n${describe(plan, options.delete)}\n`,
    );
    if (!(await confirmed(options, out))) return RECOVER_EXIT.notApplied;

    await runtime.configure({
      config: {
        get: (k: string) =>
          k === "platform:apiUrl" ? creds.apiUrl : k === "platform:apiToken" ? creds.apiToken : undefined,
      },
    });
    const backup = path.join(os.tmpdir(), `pulumi-platform-recover-${Date.now()}.json`);
    fs.writeFileSync(backup, JSON.stringify(exported), { mode: 0o600 });
    out(`checkpoint before recovery saved to ${backup}\n`);

    const providers = {
      volume: runtime.volume,
      acmeCertificate: runtime.acmeCertificate,
      customCertificate: runtime.customCertificate,
    } as const;
    let effective = plan;
    if (options.delete) {
      for (const p of plan) {
        if (p.action !== "import" || !(p.kind in providers)) continue;
        const op = exported.deployment.pending_operations?.find((o) => o.resource.urn === p.urn);
        await providers[p.kind as keyof typeof providers].delete(p.id, op?.resource.inputs ?? {});
        out(`deleted ${p.what}\n`);
      }
      effective = plan.map((p) =>
        p.action === "import" ? { action: "clear", kind: p.kind, urn: p.urn, why: "deleted" } : p,
      );
    }
    const recovered = await applyRecovery(exported, effective, async (p, inputs) => {
      const provider = providers[p.kind as keyof typeof providers];
      if (!provider) return undefined;
      const read = await provider.read(p.id, inputs);
      return read.id === "" ? undefined : read.props;
    });
    const file = path.join(os.tmpdir(), `pulumi-platform-recovered-${Date.now()}.json`);
    fs.writeFileSync(file, JSON.stringify(recovered), { mode: 0o600 });
    try {
      if (options.unlock) pulumi(options, ["cancel", "--yes"]);
      pulumi(options, ["stack", "import", "--file", file]);
    } catch (e) {
      if (!/currently locked/.test((e as Error).message)) throw e;
      throw new Error(
        `the stack is still locked by the interrupted update (nothing was changed). If no \`pulumi\` process is running on this stack any more, run again with --unlock (it runs \`pulumi cancel\`)`,
      );
    } finally {
      fs.rmSync(file, { force: true });
    }
    const left = plan.filter((p) => p.action === "ambiguous").length;
    out(
      left > 0
        ? `Recovered, except ${left} ambiguous pending create(s) left in the checkpoint. Then run \`pulumi up\`.\n`
        : "Recovered. Run `pulumi up` to finish the interrupted update.\n",
    );
    return left > 0 ? RECOVER_EXIT.notApplied : RECOVER_EXIT.ok;
  } catch (e) {
    err(`pulumi-platform recover: ${(withTokenAdvice(e) as Error).message}\n`);
    return RECOVER_EXIT.failed;
  } finally {
    runtime.resetCredentials();
    await client.close();
  }
}
