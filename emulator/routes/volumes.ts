import type { FastifyPluginAsync } from "fastify";
import {
  type CreateVolumeRequest,
  CreateVolumeRequestSchema,
  type ExtendVolumeRequest,
  ExtendVolumeRequestSchema,
  type UpdateVolumeRequest,
  UpdateVolumeRequestSchema,
} from "../../sdk/schemas";
import type { Store } from "../store";

type AppParams = { app_name: string };
type VolumeParams = AppParams & { volume_id: string };

/** Volumes and snapshots (spec 4.3). */
export const volumeRoutes =
  (store: Store): FastifyPluginAsync =>
  async (app) => {
    const volumes = store.volumes;

    app.get<{ Params: AppParams }>("/v1/apps/:app_name/volumes", async (req) => {
      store.requireApp(req.params.app_name);
      return volumes.list(req.params.app_name);
    });

    app.post<{ Params: AppParams; Body: CreateVolumeRequest }>(
      "/v1/apps/:app_name/volumes",
      { schema: { body: CreateVolumeRequestSchema } },
      async (req) => {
        const target = store.requireApp(req.params.app_name);
        return volumes.create(target.name, target.primaryRegion, req.body);
      },
    );

    app.get<{ Params: VolumeParams }>("/v1/apps/:app_name/volumes/:volume_id", async (req) => {
      store.requireApp(req.params.app_name);
      return volumes.get(req.params.app_name, req.params.volume_id);
    });

    app.put<{ Params: VolumeParams; Body: UpdateVolumeRequest }>(
      "/v1/apps/:app_name/volumes/:volume_id",
      { schema: { body: UpdateVolumeRequestSchema } },
      async (req) => {
        store.requireApp(req.params.app_name);
        return volumes.update(req.params.app_name, req.params.volume_id, req.body);
      },
    );

    app.delete<{ Params: VolumeParams }>("/v1/apps/:app_name/volumes/:volume_id", async (req) => {
      store.requireApp(req.params.app_name);
      return volumes.destroy(req.params.app_name, req.params.volume_id);
    });

    app.put<{ Params: VolumeParams; Body: ExtendVolumeRequest }>(
      "/v1/apps/:app_name/volumes/:volume_id/extend",
      { schema: { body: ExtendVolumeRequestSchema } },
      async (req) => {
        store.requireApp(req.params.app_name);
        return volumes.extend(req.params.app_name, req.params.volume_id, req.body.size_gb);
      },
    );

    app.get<{ Params: VolumeParams }>("/v1/apps/:app_name/volumes/:volume_id/snapshots", async (req) => {
      store.requireApp(req.params.app_name);
      return volumes.listSnapshots(req.params.app_name, req.params.volume_id);
    });

    app.post<{ Params: VolumeParams }>("/v1/apps/:app_name/volumes/:volume_id/snapshots", async (req) => {
      store.requireApp(req.params.app_name);
      return volumes.createSnapshot(req.params.app_name, req.params.volume_id);
    });
  };
