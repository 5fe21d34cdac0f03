import type { FastifyInstance } from "fastify";
import type { Store } from "../store";
import type { SeedApp } from "../store/seed";

declare module "fastify" {
  interface FastifyRequest {
    /** The app named by the route's `:app_name`, set by `resolveApp`'s preHandler. */
    platformApp: SeedApp;
  }
}

/**
 * One preHandler for every route of the plugin: the `:app_name` app goes on the request, or the
 * request ends as 404 `app "x" not found`. It runs after body validation, as the handlers' own
 * lookup did.
 */
export function resolveApp(app: FastifyInstance, store: Store): void {
  app.decorateRequest("platformApp", null as unknown as SeedApp);
  app.addHook("preHandler", (req, _reply, done) => {
    try {
      req.platformApp = store.requireApp((req.params as { app_name: string }).app_name);
      done();
    } catch (err) {
      done(err as Error);
    }
  });
}
