import type { FastifyPluginAsync } from "fastify";
import { z } from "zod";
import type { Emulator } from "../app";
import { CONTROL_PREFIX } from "../app-hooks";
import { type FaultSpec, FaultSpecSchema } from "../faults";
import { type DnsRecord, DnsRecordSchema } from "../store/dns";

/** The parts of the emulator the control API drives. */
export type ControlDeps = Pick<
  Emulator,
  "store" | "clock" | "faults" | "requestLog" | "cluster" | "events" | "rateLimiter"
> & {
  /** The start-up rate limit, restored by a reset. */
  initialRateLimit: number | undefined;
};

const DnsBodySchema = z.object({ records: z.array(DnsRecordSchema) });
const ClusterStateSchema = z.object({ state: z.enum(["ready", "deleting", "deleted"]) });
const AdminSchema = z.object({
  available: z.boolean(),
  retryAfterSeconds: z.number().int().nonnegative().optional(),
});
const AttachSchema = z.object({ machine_id: z.string().min(1) });
const AdvanceSchema = z.object({ ms: z.number().nonnegative() });
const SpeedSchema = z.object({ factor: z.number().nonnegative().max(1_000_000) });
const TxSchema = z.object({
  db: z.string().min(1),
  count: z.number().int().min(1).max(100_000).optional(),
  pageSize: z
    .number()
    .int()
    .refine((n) => n >= 512 && n <= 65536 && (n & (n - 1)) === 0, "must be a power of two from 512 to 65536")
    .optional(),
  pages: z.number().int().nonnegative().optional(),
});
const FailoverSchema = z.object({ primary: z.string().min(1) });
const RateLimitSchema = z.object({ perSecond: z.number().positive().max(1_000_000).nullable() });

/** The control API for tests and demos, under `/__emulator/` with the same bearer token. */
export const controlRoutes =
  (deps: ControlDeps): FastifyPluginAsync =>
  async (app) => {
    const { store, clock, faults, requestLog, cluster, events, rateLimiter } = deps;
    const p = CONTROL_PREFIX;

    app.get(`${p}/health`, async () => ({ ok: true }));

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

    app.post<{ Params: { cluster: string }; Body: z.infer<typeof ClusterStateSchema> }>(
      `${p}/postgres/:cluster/state`,
      { schema: { body: ClusterStateSchema } },
      async (req) => {
        const c = store.postgres.setState(req.params.cluster, req.body.state);
        return { name: c.name, state: c.state };
      },
    );
    app.post<{ Params: { cluster: string }; Body: z.infer<typeof AdminSchema> }>(
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

    const timeView = () => ({ now: clock.iso(), nowMs: Math.floor(clock.now()), factor: clock.speed });
    app.get(`${p}/time`, async () => timeView());
    app.post<{ Body: { ms: number } }>(
      `${p}/time/advance`,
      { schema: { body: AdvanceSchema } },
      async (req) => {
        clock.advance(req.body.ms);
        return timeView();
      },
    );
    app.put<{ Body: { factor: number } }>(
      `${p}/time/speed`,
      { schema: { body: SpeedSchema } },
      async (req) => {
        clock.setSpeed(req.body.factor);
        return timeView();
      },
    );

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
    app.put<{ Body: z.infer<typeof RateLimitSchema> }>(
      `${p}/rate-limit`,
      { schema: { body: RateLimitSchema } },
      async (req) => {
        rateLimiter.set(req.body.perSecond ?? undefined);
        return rateLimitView();
      },
    );

    app.get(`${p}/state`, async () => store.dump());
    app.post(`${p}/reset`, async () => {
      store.reset();
      faults.clear();
      requestLog.clear();
      cluster.reset();
      rateLimiter.set(deps.initialRateLimit);
      return { ok: true };
    });

    app.get(`${p}/instance`, async () => store.tasks.instance());
    app.post(`${p}/instance/wake`, async () => {
      store.tasks.wake();
      return store.tasks.instance();
    });

    app.post<{ Body: z.infer<typeof TxSchema> }>(`${p}/db/tx`, { schema: { body: TxSchema } }, async (req) =>
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
