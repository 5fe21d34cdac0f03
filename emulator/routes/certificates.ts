import type { FastifyPluginAsync } from "fastify";
import {
  AcmeCertificateBody,
  type AcmeCertificateBody as AcmeCertificateRequest,
  CertificateListQuery,
  CustomCertificateBody,
  type CustomCertificateBody as CustomCertificateRequest,
  type CertificateListQuery as ListQuery,
} from "../requests";
import type { ResponseShaper } from "../responses";
import type { Store } from "../store";
import { resolveApp } from "./app-param";

type AppParams = { app_name: string };
type HostParams = AppParams & { hostname: string };

/** Certificates (spec 4.2). Path hostnames arrive decoded: `%2A.example.com` is `*.example.com`. */
export const certificateRoutes =
  (store: Store, shape: ResponseShaper): FastifyPluginAsync =>
  async (app) => {
    resolveApp(app, store);
    const certs = store.certificates;
    const base = "/v1/apps/:app_name/certificates";

    app.get<{ Params: AppParams; Querystring: ListQuery }>(
      base,
      { schema: { querystring: CertificateListQuery } },
      async (req) => {
        return shape.certificateList(certs.list(req.platformApp.name, req.query));
      },
    );

    app.post<{ Params: AppParams; Body: AcmeCertificateRequest }>(
      `${base}/acme`,
      { schema: { body: AcmeCertificateBody } },
      async (req, reply) => {
        return reply
          .code(201)
          .send(shape.certificate(certs.requestAcme(req.platformApp.name, req.body.hostname)));
      },
    );

    app.post<{ Params: AppParams; Body: CustomCertificateRequest }>(
      `${base}/custom`,
      { schema: { body: CustomCertificateBody } },
      async (req, reply) => {
        const { hostname, fullchain, private_key } = req.body;
        return reply
          .code(201)
          .send(
            shape.certificate(certs.importCustom(req.platformApp.name, hostname, fullchain, private_key)),
          );
      },
    );

    app.get<{ Params: HostParams }>(`${base}/:hostname`, async (req) => {
      return shape.certificate(certs.get(req.platformApp.name, req.params.hostname));
    });

    app.post<{ Params: HostParams }>(`${base}/:hostname/check`, async (req) => {
      return shape.check(certs.check(req.platformApp.name, req.params.hostname));
    });

    app.delete<{ Params: HostParams }>(`${base}/:hostname`, async (req, reply) => {
      certs.deleteHostname(req.platformApp.name, req.params.hostname);
      return reply.code(204).send();
    });

    app.delete<{ Params: HostParams }>(`${base}/:hostname/acme`, async (req) => {
      return shape.certificate(certs.deleteAcme(req.platformApp.name, req.params.hostname));
    });

    app.delete<{ Params: HostParams }>(`${base}/:hostname/custom`, async (req) => {
      return shape.certificate(certs.deleteCustom(req.platformApp.name, req.params.hostname));
    });
  };
