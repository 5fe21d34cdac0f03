import type { FastifyPluginAsync } from "fastify";
import { CONTROL_PREFIX as p } from "../../app-hooks";
import type { ControlDeps } from "./deps";

/** Health, the state dump, reset, and the instance's idle stage. */
export const stateControl =
  (deps: ControlDeps): FastifyPluginAsync =>
  async (app) => {
    const { store, faults, requestLog, cluster, rateLimiter } = deps;
    app.get(`${p}/health`, async () => ({ ok: true }));
    app.get(`${p}/state`, async () => store.dump());
    app.post(`${p}/reset`, async () => {
      store.reset();
      faults.clear();
      requestLog.clear();
      cluster.reset();
      rateLimiter.set(deps.initialRateLimit);
      return { ok: true };
    });

    app.get(`${p}/instance`, async () => store.tasks.instance());
    app.post(`${p}/instance/wake`, async () => {
      store.tasks.wake();
      return store.tasks.instance();
    });
  };
