/**
 * Stops the emulator's command with the process that started it. Node has no parent-death signal
 * (Linux's `prctl(PR_SET_PDEATHSIG)` is not reachable from it), and the launchers in between do
 * not forward every ending: `npx platform-emulator &` runs the bin under `npm exec` and `sh -c`,
 * and killing `npm exec` leaves the emulator running, adopted by PID 1 (or a subreaper). So the
 * command looks at its parent's pid: once it is not the one that started it, the parent is gone.
 * @module
 */

/** How often the parent is looked at, in milliseconds. */
export const PARENT_CHECK_MS = 500;

/**
 * Calls `gone` once when the process's parent is no longer the one it had at this call. The timer
 * does not keep the process alive. Returns a function that stops watching.
 */
export function whenParentGone(gone: () => void, everyMs = PARENT_CHECK_MS): () => void {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    gone();
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
