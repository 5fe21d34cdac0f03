/**
 * Metadata files a killed update can leave unreadable on a `file://` backend. The backend stores
 * each file (checkpoint, lock, history entry) with a `<file>.attrs` sidecar (a content type and a
 * checksum), written by truncating it and then writing it, not by a rename: a SIGKILL in between
 * leaves it empty, and from then on every read of its file fails with `EOF` (`pulumi cancel`,
 * `pulumi stack export`: "failed to load checkpoint: EOF"). Without a sidecar the file is read as
 * before, so removing a broken one is the repair.
 * @module
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** Whether a Pulumi failure is the one a broken sidecar causes. */
export function isSidecarFailure(message: string): boolean {
  return /\bEOF\b/.test(message);
}

function broken(file: string): boolean {
  try {
    JSON.parse(fs.readFileSync(file, "utf8"));
    return false;
  } catch (err) {
    // Gone since it was listed: nothing to repair.
    return (err as NodeJS.ErrnoException).code === undefined;
  }
}

function sidecarsIn(dir: string, belongs: (name: string) => boolean): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith(".attrs") && belongs(name))
    .map((name) => path.join(dir, name));
}

/**
 * The sidecars of `project/stack` on the backend at `backendUrl` that do not hold JSON (empty or
 * cut short); undefined when the backend is not a `file://` one. Other stacks' files are left out.
 */
export function brokenSidecars(backendUrl: string, project: string, stack: string): string[] | undefined {
  if (!backendUrl.startsWith("file://")) return undefined;
  const root = path.join(fileURLToPath(backendUrl.split("?")[0] as string), ".pulumi");
  const lockRoot = path.join(root, "locks");
  const orgs = fs.existsSync(lockRoot) ? fs.readdirSync(lockRoot) : [];
  const candidates = [
    ...sidecarsIn(path.join(root, "stacks", project), (n) => n.startsWith(`${stack}.json`)),
    ...sidecarsIn(path.join(root, "history", project, stack), () => true),
    ...orgs.flatMap((org) => sidecarsIn(path.join(lockRoot, org, project, stack), () => true)),
    ...sidecarsIn(root, (n) => n === "meta.yaml.attrs"),
  ];
  return candidates.filter(broken);
}

/** Removes the given sidecars (already gone is fine). */
export function removeSidecars(files: string[]): void {
  for (const file of files) fs.rmSync(file, { force: true });
}
