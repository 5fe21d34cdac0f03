/**
 * The locks of a stack on a `file://` backend, and whether each is stale: left by an update that
 * is no longer running. A DIY backend keeps one JSON file per lock under
 * `.pulumi/locks/<org>/<project>/<stack>/`, written when the update started, naming its process
 * and host. A lock is stale when its process is gone on this machine, or, for a lock taken on
 * another machine (a CI runner that is gone), when it is older than a bound the caller sets
 * (`--stale-after`, longer than the longest update). A lock whose process still runs here is
 * never stale, whatever its age.
 * @module
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** One lock file of a stack. */
export interface StackLock {
  file: string;
  pid: number;
  username: string;
  hostname: string;
  /** When the update that holds it started. */
  timestamp: Date;
}

/**
 * The locks of `project/stack` on the backend at `backendUrl`; undefined when the backend is not
 * a `file://` one (its locks cannot be read here).
 */
export function fileBackendLocks(
  backendUrl: string,
  project: string,
  stack: string,
): StackLock[] | undefined {
  if (!backendUrl.startsWith("file://")) return undefined;
  const root = path.join(fileURLToPath(backendUrl.split("?")[0] as string), ".pulumi", "locks");
  const locks: StackLock[] = [];
  const orgs = fs.existsSync(root) ? fs.readdirSync(root) : [];
  for (const org of orgs) {
    const dir = path.join(root, org, project, stack);
    if (!fs.existsSync(dir)) continue;
    for (const name of fs.readdirSync(dir).filter((n) => n.endsWith(".json"))) {
      const file = path.join(dir, name);
      try {
        const content = JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, unknown>;
        locks.push({
          file,
          pid: Number(content.pid),
          username: String(content.username ?? ""),
          hostname: String(content.hostname ?? ""),
          timestamp: new Date(String(content.timestamp)),
        });
      } catch {
        // Removed while we read it (the update ended), or not a lock: nothing to judge.
      }
    }
  }
  return locks;
}

/** Whether a process with this pid runs on this machine. */
function running(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, owned by someone else.
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Whether `lock` is stale, and why (for the user to read). */
export function judgeLock(
  lock: StackLock,
  options: { staleAfterMs: number; now?: Date; hostname?: string },
): { stale: boolean; why: string } {
  const here = options.hostname ?? os.hostname();
  const ageMs = (options.now ?? new Date()).getTime() - lock.timestamp.getTime();
  const since = `since ${lock.timestamp.toISOString()}`;
  if (lock.hostname === here) {
    return running(lock.pid)
      ? { stale: false, why: `held by pid ${lock.pid} on this machine, still running (${since})` }
      : { stale: true, why: `its process (pid ${lock.pid}) is gone on this machine (${since})` };
  }
  const hours = (ageMs / 3_600_000).toFixed(1);
  return ageMs >= options.staleAfterMs
    ? { stale: true, why: `taken on ${lock.hostname} ${hours} h ago, longer than --stale-after (${since})` }
    : {
        stale: false,
        why: `taken on ${lock.hostname} (pid ${lock.pid}) ${hours} h ago, within --stale-after: it may still be running (${since})`,
      };
}

/** Parses a duration like `90m`, `6h` or `2d` into milliseconds; undefined when it is not one. */
export function parseDuration(text: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)(s|m|h|d)$/.exec(text.trim());
  if (!match) return undefined;
  const unit = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 }[match[2] as "s" | "m" | "h" | "d"];
  return Number(match[1]) * unit;
}
