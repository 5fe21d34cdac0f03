/**
 * Killing a `pulumi up` the way a lost CI runner does: SIGKILL of the CLI and every process it
 * started (the CLI puts plugins in their own process groups, so the tree is walked by parent pid).
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { brokenSidecars, removeSidecars } from "../../ops/backend-sidecars";

/** The pid and every descendant of it, read from /proc (children before their parent dies). */
export function processTree(root: number): number[] {
  const parents = new Map<number, number[]>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      parents.set(ppid, [...(parents.get(ppid) ?? []), Number(entry)]);
    } catch {
      // The process ended while we looked.
    }
  }
  const tree: number[] = [];
  const walk = (pid: number) => {
    tree.push(pid);
    for (const child of parents.get(pid) ?? []) walk(child);
  };
  walk(root);
  return tree;
}

/** SIGKILLs `root` and its descendants, leaves first; returns how many processes there were. */
export function killTree(root: number): number {
  const tree = processTree(root);
  for (const pid of [...tree].reverse()) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
  return tree.length;
}

/** Polls `probe` every 50 ms until it holds; fails naming `what` after `timeoutMs`. */
export async function until(what: string, probe: () => Promise<boolean>, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Runs `pulumi up --yes --skip-preview` of `stackName` in `dir` (the CLI in `cliDir`, with `env`)
 * and SIGKILLs its process tree once `ready` holds (`what` names it in a timeout); returns how
 * many processes were killed, after the CLI has exited.
 */
export async function killUpWhen(
  options: { cliDir: string; dir: string; stackName: string; env: NodeJS.ProcessEnv },
  what: string,
  ready: () => Promise<boolean>,
): Promise<number> {
  const up = spawn(
    path.join(options.cliDir, "pulumi"),
    ["up", "--yes", "--skip-preview", "--stack", options.stackName],
    {
      cwd: options.dir,
      env: options.env,
      stdio: "ignore",
    },
  );
  const exited = new Promise((resolve) => up.once("exit", resolve));
  await until(what, ready);
  const killed = killTree(up.pid as number);
  await exited;
  return killed;
}

/**
 * A kill can land while the file backend rewrites a metadata sidecar (see
 * ops/backend-sidecars): Pulumi then fails to read the stack with "EOF". Scenarios that
 * go on with plain `pulumi` commands repair it by hand, as docs/troubleshooting.md's row says
 * (`recover` does it itself); returns the files removed, for the test's log.
 */
export async function removeBrokenSidecars(stack: Stack, backendUrl: string): Promise<string[]> {
  const project = (await stack.workspace.projectSettings()).name;
  const broken = brokenSidecars(backendUrl, project, stack.name.split("/").at(-1) as string) ?? [];
  removeSidecars(broken);
  if (broken.length > 0)
    console.log(`the kill left empty backend metadata, removed by hand: ${broken.join(", ")}`);
  return broken;
}
