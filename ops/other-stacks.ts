/**
 * What the other stacks on the backend record, so that `recover` never imports or deletes a
 * volume another stack owns: a fleet shares apps, same-named volumes and all, and the platform
 * marks no volume with who made it (issue 46). Every stack the user can list (`pulumi stack ls
 * --all`, any backend: file, PostgreSQL, Pulumi Cloud) is exported and its volumes' ids are
 * kept; a stack that cannot be read is named, and the command then asks for
 * `--yes-delete-unowned` before deleting what it cannot prove no other stack records.
 * @module
 */
import { type ExportedDeployment, kindOf } from "./recover-plan";
import type { StackAccess } from "./stack-access";

/** What the other stacks record, as far as they could be read. */
export interface OtherStacks {
  /** Volume id → the stack that records it (as `pulumi stack ls` names it). */
  owners: ReadonlyMap<string, string>;
  /** How many other stacks were read. */
  read: number;
  /** What could not be read, with why (a stack, or the listing itself). */
  unreadable: string[];
}

/** How many `pulumi stack export`s run at once. */
const EXPORTS_AT_ONCE = 4;

/** Whether `listed` (a name `pulumi stack ls --all` printed) is this stack of this project. */
export function isThisStack(listed: string, project: string, stack: string): boolean {
  const parts = listed.split("/");
  if (parts.at(-1) !== stack) return false;
  return parts.length < 3 || parts.at(-2) === project;
}

/** The ids of the volumes `deployment` records (its resources and its pending operations' ids). */
export function recordedVolumes(deployment: ExportedDeployment): string[] {
  const { resources = [], pending_operations = [] } = deployment.deployment;
  return [...resources, ...pending_operations.map((op) => op.resource)]
    .filter((r) => r.id && kindOf(r.type, r) === "volume")
    .map((r) => r.id as string);
}

/** Reads every other stack `access` can list; never throws (what fails is `unreadable`). */
export async function readOtherStacks(access: StackAccess): Promise<OtherStacks> {
  const owners = new Map<string, string>();
  const unreadable: string[] = [];
  let names: string[];
  try {
    const [listed, project, stack] = await Promise.all([
      access.listStacks(),
      access.projectName(),
      access.stackName(),
    ]);
    names = listed.filter((name) => !isThisStack(name, project, stack));
  } catch (err) {
    return { owners, read: 0, unreadable: [`the backend's list of stacks (${firstLine(err)})`] };
  }
  let read = 0;
  const queue = [...names];
  const worker = async () => {
    for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
      try {
        for (const id of recordedVolumes(await access.exportStack(name))) owners.set(id, name);
        read++;
      } catch (err) {
        unreadable.push(`stack ${name} (${firstLine(err)})`);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(EXPORTS_AT_ONCE, names.length) }, worker));
  return { owners, read, unreadable };
}

function firstLine(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return (
    text
      .split("\n")
      .find((l) => l.trim() !== "")
      ?.trim() ?? text
  );
}
