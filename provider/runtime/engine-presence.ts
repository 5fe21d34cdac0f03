/**
 * Whether the engine that asked for a create is still there, in Pulumi's dynamic host. A SIGKILL
 * of the CLI alone (the OOM killer, a runner that kills one pid) leaves that host running — a
 * shell launcher sits between them, so its parent never changes — and a create it had not sent
 * yet would reach the platform with no stack to record it. The host's first argument is the
 * engine's address: while creates are in flight it is tried every 250 ms, and once it refuses,
 * every create not yet sent is abandoned. (The provider plugin ends with its CLI instead:
 * ../plugin/engine-watch.) Which process is the host and where its arguments put the address:
 * ../pulumi-sdk/processes.
 * @module
 */
import net from "node:net";
import { dynamicHostEngine, type EngineAddress } from "../pulumi-sdk/processes";

export { dynamicHostEngine, type EngineAddress };

const PROBE_EVERY_MS = 250;
const PROBE_TIMEOUT_MS = 1_000;

/** True only when a connection to `address` is refused (a doubt is not a refusal). */
function refused(address: EngineAddress): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(address.port, address.host);
    const done = (gone: boolean) => {
      socket.destroy();
      resolve(gone);
    };
    socket.setTimeout(PROBE_TIMEOUT_MS, () => done(false));
    socket.once("connect", () => done(false));
    socket.once("error", (err: NodeJS.ErrnoException) => done(err.code === "ECONNREFUSED"));
  });
}

interface Watch {
  controller: AbortController;
  users: number;
  timer?: NodeJS.Timeout;
}

const watches = new Map<string, Watch>();

function watchOf(address: EngineAddress): Watch {
  const key = `${address.host}:${address.port}`;
  const watch = watches.get(key) ?? { controller: new AbortController(), users: 0 };
  watches.set(key, watch);
  return watch;
}

/**
 * Runs `send` with a signal that aborts once the engine at `address` is gone (no signal outside
 * the dynamic host). A request the signal stops before it is sent never reaches the platform.
 */
export async function whileEngineRuns<T>(
  send: (signal: AbortSignal | undefined) => Promise<T>,
  address: EngineAddress | undefined = dynamicHostEngine(),
): Promise<T> {
  if (!address) return send(undefined);
  const watch = watchOf(address);
  const { controller } = watch;
  watch.users += 1;
  if (watch.users === 1 && !controller.signal.aborted) {
    let probing = false;
    watch.timer = setInterval(() => {
      if (probing) return;
      probing = true;
      void refused(address).then((gone) => {
        probing = false;
        if (gone) {
          controller.abort(
            new Error(
              `the Pulumi CLI that asked for this create is gone (engine ${address.host}:${address.port} refuses connections): not sending it, so the platform gets nothing that no stack records`,
            ),
          );
        }
      });
    }, PROBE_EVERY_MS);
    watch.timer.unref();
  }
  try {
    return await send(controller.signal);
  } finally {
    watch.users -= 1;
    if (watch.users === 0) clearInterval(watch.timer);
  }
}
