import type { FastifyPluginAsync } from "fastify";
import { dbControl } from "./db";
import type { ControlDeps } from "./deps";
import { dnsControl } from "./dns";
import { platformControl } from "./platform";
import { stateControl } from "./state";
import { timeControl } from "./time";
import { trafficControl } from "./traffic";

export type { ControlDeps } from "./deps";

/** The control API for tests and demos, under `/__emulator/` with the same bearer token. */
export const controlRoutes =
  (deps: ControlDeps): FastifyPluginAsync =>
  async (app) => {
    for (const plugin of [
      stateControl,
      dnsControl,
      platformControl,
      timeControl,
      trafficControl,
      dbControl,
    ]) {
      await app.register(plugin(deps));
    }
  };
