import Fastify, { type FastifyInstance, type FastifyServerOptions, LogController } from "fastify";
import { z } from "zod";
import {
  type CreateTaskRequest,
  CreateTaskRequestSchema,
  type TaskExpire,
  TaskExpireSchema,
} from "../../sdk/schemas";
import { installErrorHandler, installJsonParser } from "../app-hooks";
import type { ResponseShaper } from "../responses";
import { zodValidatorCompiler } from "../validation";
import type { TaskRegistry } from "./registry";

const UpsertBodySchema = z.object({ expire: TaskExpireSchema });
const UpsertNamedBodySchema = CreateTaskRequestSchema;

/**
 * The local task API (spec 4.4) served over the unix socket, virtual host `platform`.
 * Authentication of the socket is not shown in the spec; file mode 0600 guards it.
 */
export function buildTaskApp(
  tasks: TaskRegistry,
  logger: FastifyServerOptions["logger"],
  shape: ResponseShaper,
): FastifyInstance {
  const app = Fastify({
    logger,
    logController: new LogController({ disableRequestLogging: true }),
    forceCloseConnections: true,
  });
  app.setValidatorCompiler(zodValidatorCompiler);
  installJsonParser(app);
  installErrorHandler(app);

  app.get("/v1/tasks", async () => shape.taskList({ tasks: tasks.list() }));
  app.get<{ Params: { name: string } }>("/v1/tasks/:name", async (req) => tasks.get(req.params.name));
  app.post<{ Body: CreateTaskRequest }>(
    "/v1/tasks",
    { schema: { body: CreateTaskRequestSchema } },
    async (req, reply) => reply.code(201).send(tasks.create(req.body.name, req.body.expire)),
  );
  app.put<{ Params: { name: string }; Body: { expire: TaskExpire } }>(
    "/v1/tasks/:name",
    { schema: { body: UpsertBodySchema } },
    async (req) => tasks.upsert(req.params.name, req.body.expire),
  );
  app.put<{ Body: CreateTaskRequest }>(
    "/v1/tasks",
    { schema: { body: UpsertNamedBodySchema } },
    async (req) => tasks.upsert(req.body.name, req.body.expire),
  );
  app.delete<{ Params: { name: string } }>("/v1/tasks/:name", async (req, reply) => {
    tasks.delete(req.params.name);
    return reply.code(204).send();
  });
  return app;
}
