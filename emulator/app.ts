import { randomBytes } from "node:crypto";
import Fastify, { type FastifyInstance, LogController } from "fastify";
import {
  installAuth,
  installErrorHandler,
  installFaults,
  installJsonParser,
  installRequestLog,
} from "./app-hooks";
import { VirtualClock } from "./clock";
import { EventCluster } from "./events/cluster";
import { EventServers } from "./events/server";
import { FaultInjector } from "./faults";
import { type EmulatorOptions, resolveTiming } from "./options";
import { RequestLog } from "./request-log";
import { certificateRoutes } from "./routes/certificates";
import { controlRoutes } from "./routes/control";
import { postgresRoutes } from "./routes/postgres";
import { volumeRoutes } from "./routes/volumes";
import { Store } from "./store";
import { resolveSeed } from "./store/seed";
import { StateFile } from "./store/state-file";
import { buildTaskApp } from "./tasks/app";
import { zodValidatorCompiler } from "./validation";

/** The parts of an emulator, built but not listening (see startEmulator). */
export interface Emulator {
  /** The remote API and the control API. */
  app: FastifyInstance;
  /** The local task API (served on the unix socket). */
  taskApp: FastifyInstance;
  store: Store;
  clock: VirtualClock;
  faults: FaultInjector;
  requestLog: RequestLog;
  cluster: EventCluster;
  events: EventServers;
  token: string;
  stateFile: StateFile | undefined;
}

export function buildEmulator(options: EmulatorOptions = {}): Emulator {
  const timing = resolveTiming(options.timing);
  const token = options.token ?? randomBytes(24).toString("base64url");
  if (token.length === 0) throw new TypeError("token must not be empty");
  const clock = new VirtualClock();
  const store = new Store({
    clock,
    timing,
    seed: resolveSeed(options.seed, options.seedFile),
    zonesPerRegion: options.zonesPerRegion ?? 3,
  });
  const logger = options.quiet
    ? false
    : { level: "info", stream: process.stderr, base: { pid: process.pid, name: "platform-emulator" } };

  let stateFile: StateFile | undefined;
  if (options.stateFile) {
    stateFile = new StateFile(options.stateFile, () => store.serialize(), timing.persistDebounceMs);
    const saved = stateFile.read();
    if (saved) store.load(saved);
  }

  const faults = new FaultInjector(options.faultSeed ?? 1);
  const requestLog = new RequestLog();
  const cluster = new EventCluster(clock, timing.replicationLagMs);
  const events = new EventServers(cluster, options.eventsBufferBytes ?? 1024 * 1024);

  const app = Fastify({
    logger,
    // Per-request log lines would cost more than the handlers themselves.
    logController: new LogController({ disableRequestLogging: true }),
    forceCloseConnections: true,
    routerOptions: { maxParamLength: 512 },
  });
  if (stateFile) {
    const file = stateFile;
    store.onChange(() => file.schedule());
    app.log.info({ stateFile: file.path }, "persisting state");
  }
  app.setValidatorCompiler(zodValidatorCompiler);
  installJsonParser(app);
  installErrorHandler(app);
  installAuth(app, token);
  installFaults(app, faults, requestLog);
  installRequestLog(app, requestLog);
  app.register(volumeRoutes(store));
  app.register(certificateRoutes(store));
  app.register(postgresRoutes(store));
  app.register(controlRoutes({ store, clock, faults, requestLog, cluster, events }));

  const taskApp = buildTaskApp(store.tasks, logger);
  return { app, taskApp, store, clock, faults, requestLog, cluster, events, token, stateFile };
}
