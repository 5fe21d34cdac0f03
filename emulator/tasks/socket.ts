import { accessSync, constants, mkdirSync, statSync, unlinkSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { randomId } from "../../sdk/simulation/ids";

export const DEFAULT_TASK_SOCKET = "/.platform/api.sock";

/** True when something accepts connections on the socket path. */
function inUse(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(path);
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

function directoryUsable(dir: string): boolean {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    accessSync(dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Picks the socket path and clears a stale socket file. Without an explicit path the spec's
 * `/.platform/api.sock` is used when its directory is writable and no live emulator holds it;
 * otherwise a fresh path in the OS temp directory.
 */
export async function prepareTaskSocket(explicit: string | undefined): Promise<string> {
  if (explicit) {
    if (!directoryUsable(dirname(explicit)))
      throw new Error(`task socket directory ${dirname(explicit)} is not writable`);
    if (await inUse(explicit)) throw new Error(`task socket ${explicit} is already in use`);
    removeStale(explicit);
    return explicit;
  }
  if (directoryUsable(dirname(DEFAULT_TASK_SOCKET)) && !(await inUse(DEFAULT_TASK_SOCKET))) {
    removeStale(DEFAULT_TASK_SOCKET);
    return DEFAULT_TASK_SOCKET;
  }
  const dir = join(tmpdir(), randomId("platform-emulator-", 8));
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return join(dir, "api.sock");
}

function removeStale(path: string): void {
  try {
    if (statSync(path).isSocket()) unlinkSync(path);
  } catch {}
}

export function removeSocketFile(path: string): void {
  try {
    unlinkSync(path);
  } catch {}
}
