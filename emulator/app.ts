import { randomBytes } from "node:crypto";
import Fastify, { type FastifyInstance, LogController } from "fastify";
import {
  installAuth,
  installDateHeader,
  installErrorHandler,
  installFaults,
  installJsonParser,
  installRateLimit,
  installRequestId,
  installRequestLog,
} from "./app-hooks";
import { VirtualClock } from "./clock";
import { EventCluster } from "./events/cluster";
import { EventServers } from "./events/server";
import { FaultInjector } from "./faults";
import { type EmulatorOptions, resolveTiming } from "./options";
import { RateLimiter } from "./rate-limit";
import { RequestLog } from "./request-log";
import { type ResponseShaper, responseShaper } from "./responses";
import { certificateRoutes } from "./routes/certificates";
import { controlRoutes } from "./routes/control";
import { postgresRoutes } from "./routes/postgres";
import { volumeRoutes } from "./routes/volumes";
import { Store } from "./store";
import { resolveSeed } from "./store/seed";
import { StateFile } from "./store/state-file";
import { buildTaskApp } from "./tasks/socket-app";
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
  /** Per-token request rate of the remote API (`rateLimitPerSecond`). */
  rateLimiter: RateLimiter;
  /** The wire form of the answers (`responses`). */
  shape: ResponseShaper;
  token: string;
  stateFile: StateFile | undefined;
}

/** Builds every part of an emulator without listening (startEmulator listens). */
export function buildEmulator(options: EmulatorOptions = {}): Emulator {
  const timing = resolveTiming(options.timing);
  const shape = responseShaper(options.responses);
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
  const events = new EventServers(cluster, options.eventsBufferBytes ?? 1024 * 1024, shape);
  const rateLimiter = new RateLimiter(() => clock.now(), options.rateLimitPerSecond);
  const requestIdPrefix = randomBytes(6).toString("hex");
  let requests = 0;

  const app = Fastify({
    logger,
    // Per-request log lines would cost more than the handlers themselves.
    logController: new LogController({ disableRequestLogging: true }),
    forceCloseConnections: true,
    routerOptions: { maxParamLength: 512 },
    genReqId: () => `${requestIdPrefix}-${(++requests).toString(36)}`,
  });
  if (stateFile) {
    const file = stateFile;
    store.onChange(() => file.schedule());
    app.log.info({ stateFile: file.path }, "persisting state");
  }
  app.setValidatorCompiler(zodValidatorCompiler);
  installJsonParser(app);
  installErrorHandler(app);
  installRequestId(app);
  installDateHeader(app, () => clock.now());
  installAuth(app, token);
  installRateLimit(app, rateLimiter);
  installFaults(app, faults, requestLog);
  installRequestLog(app, requestLog);
  app.register(volumeRoutes(store, shape));
  app.register(certificateRoutes(store, shape));
  app.register(postgresRoutes(store));
  app.register(
    controlRoutes({
      store,
      clock,
      faults,
      requestLog,
      cluster,
      events,
      rateLimiter,
      initialRateLimit: options.rateLimitPerSecond,
    }),
  );

  const taskApp = buildTaskApp(store.tasks, logger, shape);
  return {
    app,
    taskApp,
    store,
    clock,
    faults,
    requestLog,
    cluster,
    events,
    rateLimiter,
    shape,
    token,
    stateFile,
  };
}
