import type { FastifyPluginAsync } from "fastify";
import { CONTROL_PREFIX as p } from "../../app-hooks";
import { FailoverSchema, type TxBody, TxSchema } from "../../control-schemas";
import type { ControlDeps } from "./deps";

/** The replicated database behind the event stream. */
export const dbControl =
  ({ cluster, events }: ControlDeps): FastifyPluginAsync =>
  async (app) => {
    app.post<{ Body: TxBody }>(`${p}/db/tx`, { schema: { body: TxSchema } }, async (req) =>
      cluster.write(req.body),
    );
    app.get(`${p}/db/nodes`, async () =>
      cluster.nodes.map((n) => ({ ...cluster.describe(n), eventsUrl: events.urlOf(n) })),
    );
    app.post<{ Body: { primary: string } }>(
      `${p}/db/failover`,
      { schema: { body: FailoverSchema } },
      async (req) => {
        cluster.failover(req.body.primary);
        return { primary: cluster.primary().name };
      },
    );
    app.post<{ Params: { name: string } }>(`${p}/db/nodes/:name/disconnect`, async (req) => {
      cluster.disconnect(req.params.name);
      return cluster.describe(cluster.node(req.params.name));
    });
    app.post<{ Params: { name: string } }>(`${p}/db/nodes/:name/connect`, async (req) => {
      cluster.connect(req.params.name);
      return cluster.describe(cluster.node(req.params.name));
    });
  };
