import type { FastifyPluginAsync } from "fastify";
import { CONTROL_PREFIX as p } from "../../app-hooks";
import { type RateLimitBody, RateLimitSchema } from "../../control-schemas";
import { type FaultSpec, FaultSpecSchema } from "../../faults";
import type { ControlDeps } from "./deps";

/** What happens to remote API requests: injected faults, the request log, the rate limit. */
export const trafficControl =
  ({ faults, requestLog, rateLimiter }: ControlDeps): FastifyPluginAsync =>
  async (app) => {
    app.post<{ Body: FaultSpec }>(
      `${p}/faults`,
      { schema: { body: FaultSpecSchema } },
      async (req, reply) => {
        const fault = faults.add(req.body);
        return reply.code(201).send({ id: fault.id, fault });
      },
    );
    app.get(`${p}/faults`, async () => ({ faults: faults.list() }));
    app.delete(`${p}/faults`, async () => {
      faults.clear();
      return { faults: [] };
    });

    app.get(`${p}/requests`, async () => ({ requests: requestLog.list() }));
    app.delete(`${p}/requests`, async () => {
      requestLog.clear();
      return { requests: [] };
    });

    const rateLimitView = () => ({ perSecond: rateLimiter.limit ?? null });
    app.get(`${p}/rate-limit`, async () => rateLimitView());
    app.put<{ Body: RateLimitBody }>(
      `${p}/rate-limit`,
      { schema: { body: RateLimitSchema } },
      async (req) => {
        rateLimiter.set(req.body.perSecond ?? undefined);
        return rateLimitView();
      },
    );
  };
