import type { FastifyPluginAsync } from "fastify";
import { RotatePasswordBody, type RotatePasswordBody as RotatePasswordRequest } from "../requests";
import type { Store } from "../store";

type Params = { postgres_cluster_id: string; username: string };

/**
 * Postgres password rotation (spec 4.1, 7). `kill_sessions` other than true, false or null
 * (null: not given) is a 422.
 */
export const postgresRoutes =
  (store: Store): FastifyPluginAsync =>
  async (app) => {
    app.post<{ Params: Params; Body: RotatePasswordRequest }>(
      "/v1/postgres/:postgres_cluster_id/users/:username/rotate_password",
      { schema: { body: RotatePasswordBody }, config: { validationStatus: 422 } },
      async (req) => {
        const { postgres_cluster_id, username } = req.params;
        return store.postgres.rotate(postgres_cluster_id, username, req.body.kill_sessions === true);
      },
    );
  };
