import type { FastifyPluginAsync } from "fastify";
import { CONTROL_PREFIX as p } from "../../app-hooks";
import {
  type AdminBody,
  AdminSchema,
  AttachSchema,
  type ClusterStateBody,
  ClusterStateSchema,
  type LoginBody,
  LoginSchema,
} from "../../control-schemas";
import type { ControlDeps } from "./deps";

/**
 * What the remote API cannot do: Postgres cluster states, admin outages and logins (does a
 * password work?), attached machines.
 */
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
    // Would an app's next connection with these credentials be let in (200) or refused (401)?
    app.post<{ Params: { cluster: string }; Body: LoginBody }>(
      `${p}/postgres/:cluster/login`,
      { schema: { body: LoginSchema } },
      async (req, reply) => {
        const { username, password } = req.body;
        if (store.postgres.login(req.params.cluster, username, password)) return { ok: true };
        return reply
          .code(401)
          .send({ ok: false, error: `password authentication failed for user "${username}"` });
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
