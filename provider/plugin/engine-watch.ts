/**
 * The plugin ends when the CLI that started it is gone. A SIGKILL of the CLI alone (the OOM
 * killer, a runner that kills one pid) leaves its plugins running, and a create the plugin had
 * not sent yet would still reach the platform with nobody to record it: the orphan that a rerun
 * then has to warn about. The engine starts the plugin itself, so a new parent (init or a
 * subreaper) means the engine is gone.
 * @module
 */

/** How often the parent is checked (getppid is one system call). */
const CHECK_EVERY_MS = 200;

/** Exits the process as soon as its parent is no longer `parent`. */
export function endWithEngine(parent = process.ppid): void {
  setInterval(() => {
    if (process.ppid !== parent) process.exit(1);
  }, CHECK_EVERY_MS).unref();
}
