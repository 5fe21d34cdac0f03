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
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline/promises";
import { CONFIG_KEYS, given, resolveCredentials } from "../provider/model/credentials-resolver";
import type { PlatformClient } from "../sdk";
import { brokenSidecars, isSidecarFailure, removeSidecars } from "./backend-sidecars";
import { parseCommandLine, UsageError } from "./command-line";
import { type OtherStacks, readOtherStacks } from "./other-stacks";
import { applyRecovery } from "./recover-checkpoint";
import {
  type ExportedDeployment,
  kindOf,
  type ListedVolume,
  type PendingAction,
  type PlatformLookups,
  planRecovery,
} from "./recover-plan";
import { cliStackAccess, type StackAccess } from "./stack-access";
import { fileBackendLocks, judgeLock, parseDuration } from "./stack-lock";
import { type Orphan, planSweep } from "./sweep-plan";

/** Exit codes of `pulumi-platform recover`. */
export const RECOVER_EXIT = { ok: 0, failed: 1, usage: 2, notApplied: 3 } as const;

/** Default of `--stale-after`: longer than any update a pipeline runs. */
const DEFAULT_STALE_AFTER = "6h";
/** Default of `--window`: how long before an owned volume's creation an orphan of it may be. */
const DEFAULT_WINDOW = "24h";

const HELP = `usage: pulumi-platform recover [options]

After an interrupted \`pulumi up\`, finds what its pending creates made at the platform that no
resource of the stack owns, shows the plan, then imports those into the stack (or deletes them
with --delete) and drops the pending creates that made nothing. Run \`pulumi up\` afterwards.
With nothing pending it does nothing (one \`pulumi stack export\`): run it before every \`up\`.
On a file:// backend it also removes the metadata files a kill left empty, when Pulumi cannot
read the stack because of them ("failed to load checkpoint: EOF").

options:
  --stack <name>         the stack (default: the selected stack)
  --cwd <dir>            the Pulumi project directory (default: the current directory)
  --delete               delete what the interrupted up made, instead of importing it
  --unlock-if-stale      remove the stack's lock when the update that took it is gone: its
                         process no longer runs on this machine, or it was taken on another
                         machine longer ago than --stale-after. A live update's lock is kept.
                         Only file:// backends (their locks can be read)
  --stale-after <dur>    for --unlock-if-stale, e.g. 90m, 6h, 2d (default ${DEFAULT_STALE_AFTER})
  --unlock               remove the lock unconditionally (\`pulumi cancel\`); only when you know
                         no other update of this stack is running
  --sweep                also find volumes an interrupted up made whose pending creates are gone
                         (after \`refresh --clear-pending-creates\`, or reruns): unattached, named
                         and placed like an owned volume, created shortly before it (after the
                         last update that completed before it, at most --window earlier).
                         Deleted with --delete --yes; never imported
  --window <dur>         for --sweep (default ${DEFAULT_WINDOW})
  --yes-delete-unowned   with --delete: delete even when some stacks of the backend could not
                         be read, so that nothing proves the volumes are no other stack's.
                         Without it those deletes are not made (exit 3). A volume a readable
                         stack records is never imported or deleted, with or without it
  --yes                  apply without asking
  -h, --help             this help

Credentials: the stack config (platform:apiUrl, platform:apiToken), else PLATFORM_API_URL and
PLATFORM_API_TOKEN. The checkpoint before the change is saved to a file first (path printed).

Other stacks: apps are shared (a fleet), and the platform marks no volume with who made it. Once
there is something to recover or sweep, every stack the user can list (\`pulumi stack ls --all\`)
is exported, and a volume any of them records is left alone (named in the report).

exit codes: 0 recovered or nothing to do, 1 pulumi or platform failure, 2 usage or no credentials,
3 not applied (declined, no --yes without a terminal, a live lock kept) or ambiguous creates left
`;

/** What `recover` is asked to do. */
export interface RecoverOptions {
  /** Delete what the interrupted update made instead of importing it (and delete sweep orphans). */
  delete?: boolean;
  /** Remove the lock unconditionally. */
  unlock?: boolean;
  /** Remove the lock when it is stale (see ./stack-lock). */
  unlockIfStale?: boolean;
  /** For `unlockIfStale`: a lock taken on another machine is stale after this long (default 6 h). */
  staleAfterMs?: number;
  /** Also look for orphans whose pending creates are gone. */
  sweep?: boolean;
  /** For `sweep` (default 24 h). */
  windowMs?: number;
  /** With `delete`: delete even when some stacks could not be read (see ./other-stacks). */
  yesDeleteUnowned?: boolean;
  /** Apply without asking. */
  yes?: boolean;
  /** Where the plan and progress are written (default: standard output). */
  write?: (text: string) => void;
  /** Credentials when the stack config and the environment should not be read. */
  apiUrl?: string;
  apiToken?: string;
  /** Where PLATFORM_API_URL / PLATFORM_API_TOKEN are read (default: this process's environment). */
  environment?: Record<string, string | undefined>;
}

interface CommandOptions extends RecoverOptions {
  stack?: string;
  cwd: string;
}

function duration(value: unknown, option: string, fallback: string): number {
  const text = typeof value === "string" ? value : fallback;
  const ms = parseDuration(text);
  if (ms === undefined)
    throw new UsageError(`--${option} takes a duration like 90m, 6h or 2d (got "${text}")`);
  return ms;
}

function optionsOf(argv: string[]): CommandOptions | "help" {
  const values = parseCommandLine(argv, {
    stack: { type: "string" },
    cwd: { type: "string" },
    delete: { type: "boolean" },
    unlock: { type: "boolean" },
    "unlock-if-stale": { type: "boolean" },
    "stale-after": { type: "string" },
    sweep: { type: "boolean" },
    window: { type: "string" },
    "yes-delete-unowned": { type: "boolean" },
    yes: { type: "boolean", short: "y" },
    help: { type: "boolean", short: "h" },
  });
  if (values.help) return "help";
  return {
    cwd: path.resolve(typeof values.cwd === "string" ? values.cwd : "."),
    delete: values.delete === true,
    unlock: values.unlock === true,
    unlockIfStale: values["unlock-if-stale"] === true,
    staleAfterMs: duration(values["stale-after"], "stale-after", DEFAULT_STALE_AFTER),
    sweep: values.sweep === true,
    windowMs: duration(values.window, "window", DEFAULT_WINDOW),
    yesDeleteUnowned: values["yes-delete-unowned"] === true,
    yes: values.yes === true,
    ...(typeof values.stack === "string" && values.stack !== "" ? { stack: values.stack } : {}),
  };
}

async function credentials(
  access: StackAccess,
  options: RecoverOptions,
): Promise<{ apiUrl: string; apiToken: string }> {
  // The stack config is read (a `pulumi config get` each) only for what the options leave out.
  const config: Record<string, string | undefined> = {
    [CONFIG_KEYS.apiUrl]: given(options.apiUrl) ? undefined : await access.configValue(CONFIG_KEYS.apiUrl),
    [CONFIG_KEYS.apiToken]: given(options.apiToken)
      ? undefined
      : await access.configValue(CONFIG_KEYS.apiToken),
  };
  const resolved = resolveCredentials({
    args: options,
    config: (key) => config[key],
    env: options.environment ?? process.env,
  });
  if (!resolved.ok) throw new UsageError(resolved.problems.join("; "));
  return resolved;
}

function lookups(
  volumes: (app: string) => Promise<ListedVolume[]>,
  client: PlatformClient,
  isNotFound: (err: unknown) => boolean,
): PlatformLookups {
  return {
    volumes,
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
    if (p.action === "import") {
      const replaced = p.replacing
        ? deleting
          ? "\n          (a replacement: the next `pulumi up` replaces again)"
          : "\n          as the replacement of the resource of that URN (the next `pulumi up` deletes the replaced one)"
        : "";
      return `  ${deleting ? "delete" : "import"}  ${p.urn}\n          ${p.what}${replaced}`;
    }
    if (p.action === "clear") return `  clear   ${p.urn}\n          ${p.why}`;
    return `  LEFT    ${p.urn}\n          more than one candidate, decide yourself: ${p.candidates.join(", ")}`;
  });
  return lines.join("\n");
}

function describeOrphans(orphans: Orphan[], deleting: boolean): string {
  return orphans
    .map((o) => `  ${deleting ? "delete" : "ORPHAN"}  ${o.what}\n          twin of ${o.twin}`)
    .join("\n");
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

/** What the plan (`found`, made without reading other stacks) would have taken that they record. */
function othersIn(
  found: { plan: PendingAction[]; orphans: Orphan[] },
  others: OtherStacks,
): { id: string; owner: string; as: string }[] {
  const ids = [
    ...found.orphans.map((o) => ({ id: o.id, as: `an orphan of ${o.twin}` })),
    ...found.plan.flatMap((p) =>
      p.action === "import"
        ? [{ id: p.id, as: `what ${p.urn} made` }]
        : p.action === "ambiguous"
          ? p.candidates.map((c) => ({ id: c.split(" ")[0] ?? c, as: `a candidate of ${p.urn}` }))
          : [],
    ),
  ];
  const seen = new Set<string>();
  return ids.flatMap(({ id, as }) => {
    const owner = others.owners.get(id);
    if (!owner || seen.has(id)) return [];
    seen.add(id);
    return [{ id, owner, as }];
  });
}

/** Says which volumes were left alone because another stack records them, and what was not read. */
function describeOthers(
  others: OtherStacks,
  skipped: { id: string; owner: string; as: string }[],
  out: (t: string) => void,
): void {
  for (const s of skipped)
    out(
      `pulumi-platform recover: left alone: volume ${s.id}, which would be ${s.as}: stack ${s.owner} records it (another stack's volume is never imported or deleted)\n`,
    );
  if (others.unreadable.length > 0)
    out(
      `pulumi-platform recover: could not read ${others.unreadable.join("; ")}: a volume only they record cannot be told from an orphan, so deleting needs --yes-delete-unowned\n`,
    );
}

/** The stack and project of a deployment, from a URN (`urn:pulumi:<stack>::<project>::…`). */
function namesOf(exported: ExportedDeployment): { stack: string; project: string } | undefined {
  const urn =
    exported.deployment.resources?.[0]?.urn ?? exported.deployment.pending_operations?.[0]?.resource.urn;
  const [head, project] = urn?.split("::") ?? [];
  const stack = head?.split(":").at(-1);
  return stack && project ? { stack, project } : undefined;
}

/** What the stack's locks say: whether to unlock, when the interrupted update began, and why. */
interface LockVerdict {
  /** Locks exist and every one is stale. */
  unlock: boolean;
  /** A lock exists that is not stale (or cannot be judged): the stack must be left alone. */
  live: string | undefined;
  /** The start of the update whose lock was found (the earliest lock). */
  since: Date | undefined;
  notes: string[];
}

async function judgeLocks(
  access: StackAccess,
  exported: ExportedDeployment,
  options: RecoverOptions,
): Promise<LockVerdict> {
  const names = namesOf(exported) ?? { stack: await access.stackName(), project: await access.projectName() };
  const url = await access.backendUrl();
  const locks = fileBackendLocks(url, names.project, names.stack);
  if (locks === undefined) {
    // Another backend: its locks are its own business (a service ends a dead update's lease).
    return {
      unlock: false,
      live: undefined,
      since: undefined,
      notes: ["the backend is not a file:// one, so its locks cannot be judged here: left as they are"],
    };
  }
  const verdicts = locks.map((lock) => ({
    lock,
    ...judgeLock(lock, { staleAfterMs: options.staleAfterMs ?? 6 * 3_600_000 }),
  }));
  const live = verdicts.find((v) => !v.stale);
  const starts = locks.map((l) => l.timestamp.getTime()).filter((t) => !Number.isNaN(t));
  return {
    unlock: locks.length > 0 && !live,
    live: live ? `the stack is locked by an update that may still run: ${live.why}` : undefined,
    since: starts.length > 0 ? new Date(Math.min(...starts)) : undefined,
    notes: verdicts.map((v) => `lock ${path.basename(v.lock.file)}: ${v.stale ? "stale" : "live"}, ${v.why}`),
  };
}

/**
 * Recovers `access`'s stack after an interrupted `pulumi up` (see the command's help); resolves to
 * its exit code. With nothing pending, no lock to judge and no sweep it costs one stack export.
 */
export async function recoverWith(access: StackAccess, options: RecoverOptions): Promise<number> {
  const out = options.write ?? ((t: string) => process.stdout.write(t));
  const exported = await repairingSidecars(access, options, out, () => access.exportDeployment());
  if (exported === undefined) return RECOVER_EXIT.notApplied;
  const ours = (exported.deployment.pending_operations ?? []).filter(
    (op) => op.type === "creating" && kindOf(op.resource.type) !== undefined,
  );
  const locks = options.unlockIfStale ? await judgeLocks(access, exported, options) : undefined;
  for (const note of locks?.notes ?? []) out(`pulumi-platform recover: ${note}\n`);
  if (ours.length === 0 && !options.sweep) {
    const unlocked = await unlockIfAsked(access, options, locks, out);
    if (unlocked === "kept") return RECOVER_EXIT.notApplied;
    out("pulumi-platform recover: no pending creates of pulumi-platform resources; nothing to do.\n");
    return RECOVER_EXIT.ok;
  }
  if (locks?.live) {
    out(`pulumi-platform recover: not applied: ${locks.live}. Nothing was changed.\n`);
    return RECOVER_EXIT.notApplied;
  }

  const creds = await credentials(access, options);
  // The sdk and the runtime load only now: with nothing to recover, none of them is needed.
  const [{ isNotFound, PlatformClient }, runtime] = await Promise.all([
    import("../sdk"),
    import("../provider/kinds/runtime-entry"),
  ]);
  const client = new PlatformClient({
    baseUrl: creds.apiUrl,
    token: creds.apiToken,
    userAgent: "pulumi-platform-recover",
  });
  try {
    const updates = await repairingSidecars(access, options, out, () => access.completedUpdates());
    if (updates === undefined) return RECOVER_EXIT.notApplied;
    // The interrupted update began after the last one that completed, and when its lock says.
    const lastEnd = Math.max(...updates.map((u) => u.endTime.getTime()), Number.NEGATIVE_INFINITY);
    const since = locks?.since ?? (Number.isFinite(lastEnd) ? new Date(lastEnd) : undefined);
    // Each app is listed once; a volume another stack records is never a candidate (issue 46).
    const others = await readOtherStacks(access);
    const lists = new Map<string, Promise<ListedVolume[]>>();
    const listed = (app: string) => {
      const known = lists.get(app);
      if (known) return known;
      const list = client.volumes.list(app);
      lists.set(app, list);
      return list;
    };
    const notOthers = async (app: string) => (await listed(app)).filter((v) => !others.owners.has(v.id));
    const planWith = async (volumes: (app: string) => Promise<ListedVolume[]>) => {
      const plan = await planRecovery(exported, lookups(volumes, client, isNotFound), since ? { since } : {});
      // Pending creates a rerun already created again: their orphans are the sweep's to find.
      const sweep = options.sweep || plan.some((p) => p.action === "clear" && p.recreated);
      const orphans = sweep
        ? await planSweep(exported, updates, volumes, { windowMs: options.windowMs ?? 86_400_000 })
        : [];
      return { plan, orphans };
    };
    const { plan, orphans } = await planWith(notOthers);
    // What the plan would have taken without reading the other stacks: said, then left alone.
    const skipped = others.owners.size > 0 ? othersIn(await planWith(listed), others) : [];
    describeOthers(others, skipped, out);
    if (plan.length === 0 && orphans.length === 0) {
      const unlocked = await unlockIfAsked(access, options, locks, out);
      if (unlocked === "kept") return RECOVER_EXIT.notApplied;
      out("pulumi-platform recover: nothing to recover and no orphan found.\n");
      return RECOVER_EXIT.ok;
    }
    if (plan.length > 0) {
      out(
        `pulumi-platform recover: ${plan.length} pending create(s) of an interrupted \`pulumi up\`:\n${describe(plan, options.delete === true)}\n`,
      );
    }
    if (orphans.length > 0) {
      out(
        `pulumi-platform recover: ${orphans.length} volume(s) an interrupted \`pulumi up\` left that the stack does not own:\n${describeOrphans(orphans, options.delete === true)}\n`,
      );
      if (!options.delete)
        out("Orphans are only deleted: run again with --sweep --delete --yes to delete them.\n");
    }
    const deletes = orphans.length + (options.delete ? plan.filter((p) => p.action === "import").length : 0);
    if (deletes > 0 && others.unreadable.length > 0 && !options.yesDeleteUnowned) {
      out(
        `pulumi-platform recover: not applied: ${deletes} volume(s) would be deleted, but ${others.unreadable.length} other stack(s) of the backend could not be read, so nothing proves they are not theirs. Check them, then run again with --yes-delete-unowned to delete them anyway. Nothing was changed.\n`,
      );
      return RECOVER_EXIT.notApplied;
    }
    if (!(await confirmed(options, out))) return RECOVER_EXIT.notApplied;

    // The providers call the platform through this command's own client.
    const asRecover = <T>(fn: () => Promise<T>) => runtime.withClient(client, fn);
    if (options.delete) {
      for (const o of orphans) {
        await asRecover(() => runtime.volume.delete(o.id, { app: o.app }));
        out(`deleted ${o.what}\n`);
      }
    }
    if (plan.length === 0) {
      const unlocked = await unlockIfAsked(access, options, locks, out);
      out(options.delete ? "Swept.\n" : "Nothing imported.\n");
      return unlocked === "kept" ? RECOVER_EXIT.notApplied : RECOVER_EXIT.ok;
    }
    const backup = path.join(os.tmpdir(), `pulumi-platform-recover-${Date.now()}.json`);
    fs.writeFileSync(backup, JSON.stringify(exported), { mode: 0o600 });
    out(`checkpoint before recovery saved to ${backup}\n`);

    const providers = runtime.providers;
    let effective = plan;
    if (options.delete) {
      for (const p of plan) {
        if (p.action !== "import") continue;
        const op = exported.deployment.pending_operations?.find((o) => o.resource.urn === p.urn);
        await asRecover(() => providers[p.kind].delete(p.id, op?.resource.inputs ?? {}));
        out(`deleted ${p.what}\n`);
      }
      effective = plan.map((p) =>
        p.action === "import" ? { action: "clear", kind: p.kind, urn: p.urn, why: "deleted" } : p,
      );
    }
    const recovered = await applyRecovery(exported, effective, async (p, inputs) => {
      const read = await asRecover(() => providers[p.kind].read(p.id, inputs));
      return read.id === "" ? undefined : read.props;
    });
    try {
      await unlockIfAsked(access, options, locks, out);
      await access.importDeployment(recovered);
    } catch (e) {
      if (!/currently locked/.test((e as Error).message)) throw e;
      throw new Error(
        `the stack is still locked by the interrupted update (nothing was changed). If no \`pulumi\` process is running on this stack any more, run again with --unlock-if-stale (or --unlock)`,
      );
    }
    const left = plan.filter((p) => p.action === "ambiguous").length;
    out(
      left > 0
        ? `Recovered, except ${left} ambiguous pending create(s) left in the checkpoint. Then run \`pulumi up\`.\n`
        : "Recovered. Run `pulumi up` to finish the interrupted update.\n",
    );
    return left > 0 ? RECOVER_EXIT.notApplied : RECOVER_EXIT.ok;
  } finally {
    await client.close();
  }
}

/**
 * `read` (a `pulumi` command that reads the stack), after removing the backend metadata files a
 * killed update left empty when that is why Pulumi cannot read the stack (see
 * ./backend-sidecars); undefined when that repair was not confirmed.
 */
async function repairingSidecars<T>(
  access: StackAccess,
  options: RecoverOptions,
  out: (t: string) => void,
  read: () => Promise<T>,
): Promise<T | undefined> {
  try {
    return await read();
  } catch (err) {
    if (!isSidecarFailure((err as Error).message)) throw err;
    const [url, project, stack] = await Promise.all([
      access.backendUrl(),
      access.projectName(),
      access.stackName(),
    ]);
    const broken = brokenSidecars(url, project, stack) ?? [];
    if (broken.length === 0) throw err;
    out(
      `pulumi-platform recover: Pulumi cannot read the stack ("EOF"): the interrupted update was killed while it wrote ${broken.length} of the backend's metadata file(s), now empty:\n${broken.map((f) => `  remove  ${f}`).join("\n")}\n          they hold only a content type and a checksum; without them Pulumi reads the stack again\n`,
    );
    if (!(await confirmed(options, out))) return undefined;
    removeSidecars(broken);
    out(`pulumi-platform recover: removed ${broken.length} empty metadata file(s) of the backend.\n`);
    return read();
  }
}

/** Removes the lock when asked to and allowed: "kept" when a live lock was left in place. */
async function unlockIfAsked(
  access: StackAccess,
  options: RecoverOptions,
  locks: LockVerdict | undefined,
  out: (t: string) => void,
): Promise<"unlocked" | "kept" | "none"> {
  if (options.unlock) {
    await access.cancel();
    return "unlocked";
  }
  if (!locks) return "none";
  if (locks.live) {
    out(`pulumi-platform recover: lock kept: ${locks.live}\n`);
    return "kept";
  }
  if (!locks.unlock) return "none";
  await access.cancel();
  out("pulumi-platform recover: removed the stale lock of the interrupted update.\n");
  return "unlocked";
}

/** Runs the command with its arguments; resolves to the process exit code. */
export async function run(argv: string[]): Promise<number> {
  const err = (t: string) => process.stderr.write(t);
  let options: CommandOptions | "help";
  try {
    options = optionsOf(argv);
    if (options === "help") {
      process.stdout.write(HELP);
      return RECOVER_EXIT.ok;
    }
  } catch (e) {
    err(`pulumi-platform recover: ${(e as Error).message}\n`);
    return e instanceof UsageError ? RECOVER_EXIT.usage : RECOVER_EXIT.failed;
  }
  try {
    return await recoverWith(cliStackAccess(options.cwd, options.stack), options);
  } catch (e) {
    const { withTokenAdvice } = await import("../provider/runtime/errors");
    err(`pulumi-platform recover: ${(withTokenAdvice(e) as Error).message}\n`);
    return e instanceof UsageError ? RECOVER_EXIT.usage : RECOVER_EXIT.failed;
  }
}
