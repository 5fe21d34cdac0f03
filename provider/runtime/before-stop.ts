/**
 * Work the provider process finishes before it stops. At the end of every command the engine
 * stops each provider: a plugin first gets a `Cancel` call (the plugin door runs the work there),
 * then the process group gets SIGINT and 5 s before SIGKILL (Pulumi's dynamic host has no Cancel
 * of its own, so the work runs on that SIGINT; the engine reads the process's stderr until it
 * closes, so what it prints then is shown). The SIGINT listener exists only while work is
 * waiting, and the signal then takes its default course.
 * @module
 */

/** How long the work may hold the stop (the engine's grace is 5 s). */
const STOP_LIMIT_MS = 3_000;

const waiting = new Set<() => Promise<void>>();
let throughCancel = false;
let listening = false;

/** Runs `task` once before the process stops (once per registration; a task never fails the stop). */
export function beforeStop(task: () => Promise<void>): void {
  waiting.add(task);
  if (!throughCancel && !listening) {
    listening = true;
    process.once("SIGINT", () => {
      listening = false;
      void finishBeforeStop().finally(() => process.kill(process.pid, "SIGINT"));
    });
  }
}

/** The plugin door: the engine's `Cancel` call runs the work, no SIGINT listener is needed. */
export function finishOnCancel(): void {
  throughCancel = true;
}

/** Runs the waiting work now (at most {@link STOP_LIMIT_MS}); what registers later waits again. */
export async function finishBeforeStop(): Promise<void> {
  const tasks = [...waiting];
  waiting.clear();
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, STOP_LIMIT_MS);
  });
  await Promise.race([Promise.allSettled(tasks.map((t) => t())), limit]);
  clearTimeout(timer);
}
