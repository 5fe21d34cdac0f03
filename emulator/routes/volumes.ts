import type { FastifyPluginAsync } from "fastify";
import {
  CreateVolumeBody,
  type CreateVolumeBody as CreateVolumeRequest,
  ExtendVolumeBody,
  type ExtendVolumeBody as ExtendVolumeRequest,
  UpdateVolumeBody,
  type UpdateVolumeBody as UpdateVolumeRequest,
} from "../requests";
import type { ResponseShaper } from "../responses";
import type { Store } from "../store";
import { resolveApp } from "./app-param";

type AppParams = { app_name: string };
type VolumeParams = AppParams & { volume_id: string };

/** Volumes and snapshots (spec 4.3). */
export const volumeRoutes =
  (store: Store, shape: ResponseShaper): FastifyPluginAsync =>
  async (app) => {
    resolveApp(app, store);
    const volumes = store.volumes;

    app.get<{ Params: AppParams }>("/v1/apps/:app_name/volumes", async (req, reply) => {
      return reply.send(shape.volumes(volumes.list(req.platformApp.name)));
    });

    app.post<{ Params: AppParams; Body: CreateVolumeRequest }>(
      "/v1/apps/:app_name/volumes",
      { schema: { body: CreateVolumeBody } },
      async (req) => {
        const target = req.platformApp;
        return shape.volume(volumes.create(target.name, target.primaryRegion, req.body));
      },
    );

    app.get<{ Params: VolumeParams }>("/v1/apps/:app_name/volumes/:volume_id", async (req) => {
      return shape.volume(volumes.get(req.platformApp.name, req.params.volume_id));
    });

    app.put<{ Params: VolumeParams; Body: UpdateVolumeRequest }>(
      "/v1/apps/:app_name/volumes/:volume_id",
      { schema: { body: UpdateVolumeBody } },
      async (req) => {
        return shape.volume(volumes.update(req.platformApp.name, req.params.volume_id, req.body));
      },
    );

    app.delete<{ Params: VolumeParams }>("/v1/apps/:app_name/volumes/:volume_id", async (req) => {
      return shape.volume(volumes.destroy(req.platformApp.name, req.params.volume_id));
    });

    app.put<{ Params: VolumeParams; Body: ExtendVolumeRequest }>(
      "/v1/apps/:app_name/volumes/:volume_id/extend",
      { schema: { body: ExtendVolumeBody } },
      async (req) => {
        return shape.extend(volumes.extend(req.platformApp.name, req.params.volume_id, req.body.size_gb));
      },
    );

    app.get<{ Params: VolumeParams }>(
      "/v1/apps/:app_name/volumes/:volume_id/snapshots",
      async (req, reply) => {
        return reply.send(shape.snapshots(volumes.listSnapshots(req.platformApp.name, req.params.volume_id)));
      },
    );

    app.post<{ Params: VolumeParams }>("/v1/apps/:app_name/volumes/:volume_id/snapshots", async (req) => {
      return shape.onDemandSnapshot(volumes.createSnapshot(req.platformApp.name, req.params.volume_id));
    });
  };
