import { chmodSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { buildEmulator, type Emulator } from "./app";
import type { EmulatorOptions } from "./options";
import { prepareTaskSocket, removeSocketFile } from "./tasks/socket";

/** What a started emulator tells its caller; the CLI prints the first four as its start line. */
export interface RunningEmulator {
  url: string;
  token: string;
  taskSocket: string;
  eventsUrl: string;
  /** Stops every listener, flushes the state file and removes the socket file. */
  close(): Promise<void>;
  emulator: Emulator;
  store: Emulator["store"];
}

/** Builds the emulator and starts its listeners: remote API, task socket, event streams. */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const emulator = buildEmulator(options);
  const host = options.host ?? "127.0.0.1";
  const { app, taskApp, events } = emulator;
  let taskSocket = "";
  try {
    await app.listen({ host, port: options.port ?? 4280 });
    taskSocket = await prepareTaskSocket(options.taskSocket);
    await taskApp.listen({ path: taskSocket });
    chmodSync(taskSocket, 0o600);
    await events.listen(host, options.eventsPort ?? 0);
  } catch (err) {
    await shutdown(emulator, taskSocket);
    throw err;
  }
  const port = (app.server.address() as AddressInfo).port;
  const hostPart = host.includes(":") ? `[${host}]` : host;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${hostPart}:${port}`,
    token: emulator.token,
    taskSocket,
    eventsUrl: events.urlOf(emulator.cluster.nodes[0]!),
    close: () => {
      closing ??= shutdown(emulator, taskSocket);
      return closing;
    },
    emulator,
    store: emulator.store,
  };
}

async function shutdown(emulator: Emulator, taskSocket: string): Promise<void> {
  const results = await Promise.allSettled([
    emulator.app.close(),
    emulator.taskApp.close(),
    emulator.events.close(),
  ]);
  if (taskSocket) removeSocketFile(taskSocket);
  emulator.clock.dispose();
  await emulator.stateFile?.flush();
  const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failed) throw failed.reason;
}
