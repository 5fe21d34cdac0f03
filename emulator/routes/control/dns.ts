import type { FastifyPluginAsync } from "fastify";
import { CONTROL_PREFIX as p } from "../../app-hooks";
import { DnsBodySchema } from "../../control-schemas";
import type { DnsRecord } from "../../store/dns";
import type { ControlDeps } from "./deps";

/** The simulated DNS that certificate checks resolve against. */
export const dnsControl =
  ({ store }: ControlDeps): FastifyPluginAsync =>
  async (app) => {
    app.get(`${p}/dns`, async () => ({ records: store.dns.list() }));
    app.put<{ Body: { records: DnsRecord[] } }>(
      `${p}/dns`,
      { schema: { body: DnsBodySchema } },
      async (req) => {
        store.dns.set(req.body.records);
        return { records: store.dns.list() };
      },
    );
    app.delete(`${p}/dns`, async () => {
      store.dns.clear();
      return { records: [] };
    });
  };
