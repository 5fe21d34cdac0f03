import type { FastifyPluginAsync } from "fastify";
import { z } from "zod";
import {
  type AcmeCertificateRequest,
  AcmeCertificateRequestSchema,
  type CustomCertificateRequest,
  CustomCertificateRequestSchema,
} from "../../sdk/schemas";
import type { Store } from "../store";

type AppParams = { app_name: string };
type HostParams = AppParams & { hostname: string };

const ListQuerySchema = z.object({
  filter: z.string().optional(),
  cursor: z.string().min(1).optional(),
  limit: z.coerce.number().int().min(1).optional(),
});
type ListQuery = z.infer<typeof ListQuerySchema>;

/** Certificates (spec 4.2). Path hostnames arrive decoded: `%2A.example.com` is `*.example.com`. */
export const certificateRoutes =
  (store: Store): FastifyPluginAsync =>
  async (app) => {
    const certs = store.certificates;
    const base = "/v1/apps/:app_name/certificates";

    app.get<{ Params: AppParams; Querystring: ListQuery }>(
      base,
      { schema: { querystring: ListQuerySchema } },
      async (req) => {
        store.requireApp(req.params.app_name);
        return certs.list(req.params.app_name, req.query);
      },
    );

    app.post<{ Params: AppParams; Body: AcmeCertificateRequest }>(
      `${base}/acme`,
      { schema: { body: AcmeCertificateRequestSchema } },
      async (req, reply) => {
        store.requireApp(req.params.app_name);
        return reply.code(201).send(certs.requestAcme(req.params.app_name, req.body.hostname));
      },
    );

    app.post<{ Params: AppParams; Body: CustomCertificateRequest }>(
      `${base}/custom`,
      { schema: { body: CustomCertificateRequestSchema } },
      async (req, reply) => {
        store.requireApp(req.params.app_name);
        const { hostname, fullchain, private_key } = req.body;
        return reply
          .code(201)
          .send(certs.importCustom(req.params.app_name, hostname, fullchain, private_key));
      },
    );

    app.get<{ Params: HostParams }>(`${base}/:hostname`, async (req) => {
      store.requireApp(req.params.app_name);
      return certs.get(req.params.app_name, req.params.hostname);
    });

    app.post<{ Params: HostParams }>(`${base}/:hostname/check`, async (req) => {
      store.requireApp(req.params.app_name);
      return certs.check(req.params.app_name, req.params.hostname);
    });

    app.delete<{ Params: HostParams }>(`${base}/:hostname`, async (req, reply) => {
      store.requireApp(req.params.app_name);
      certs.deleteHostname(req.params.app_name, req.params.hostname);
      return reply.code(204).send();
    });

    app.delete<{ Params: HostParams }>(`${base}/:hostname/acme`, async (req) => {
      store.requireApp(req.params.app_name);
      return certs.deleteAcme(req.params.app_name, req.params.hostname);
    });

    app.delete<{ Params: HostParams }>(`${base}/:hostname/custom`, async (req) => {
      store.requireApp(req.params.app_name);
      return certs.deleteCustom(req.params.app_name, req.params.hostname);
    });
  };
