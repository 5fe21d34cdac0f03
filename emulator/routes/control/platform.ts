import type { FastifyPluginAsync } from "fastify";
import { CONTROL_PREFIX as p } from "../../app-hooks";
import {
  type AdminBody,
  AdminSchema,
  AttachSchema,
  type ClusterStateBody,
  ClusterStateSchema,
} from "../../control-schemas";
import type { ControlDeps } from "./deps";

/** What the remote API cannot do: Postgres cluster states and admin outages, attached machines. */
export const platformControl =
  ({ store }: ControlDeps): FastifyPluginAsync =>
  async (app) => {
    app.post<{ Params: { cluster: string }; Body: ClusterStateBody }>(
      `${p}/postgres/:cluster/state`,
      { schema: { body: ClusterStateSchema } },
      async (req) => {
        const c = store.postgres.setState(req.params.cluster, req.body.state);
        return { name: c.name, state: c.state };
      },
    );
    app.post<{ Params: { cluster: string }; Body: AdminBody }>(
      `${p}/postgres/:cluster/admin`,
      { schema: { body: AdminSchema } },
      async (req) => {
        const c = store.postgres.setAdmin(req.params.cluster, req.body.available, req.body.retryAfterSeconds);
        return { name: c.name, available: c.admin.available, retryAfterSeconds: c.admin.retry_after_seconds };
      },
    );

    app.post<{ Params: { id: string }; Body: { machine_id: string } }>(
      `${p}/volumes/:id/attach`,
      { schema: { body: AttachSchema } },
      async (req) => store.volumes.attach(req.params.id, req.body.machine_id),
    );
    app.post<{ Params: { id: string } }>(`${p}/volumes/:id/detach`, async (req) =>
      store.volumes.detach(req.params.id),
    );
  };
