import { timingSafeEqual } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { EmulatorError, STATUS_OF_KIND } from "./errors";
import type { Fault, FaultInjector } from "./faults";
import type { RateLimiter } from "./rate-limit";
import type { RequestLog } from "./request-log";

export const CONTROL_PREFIX = "/__emulator";

const pathOf = (url: string) => {
  const q = url.indexOf("?");
  return q < 0 ? url : url.slice(0, q);
};

/** Authorization schemes real clients send (compared case-insensitively). */
const AUTH_SCHEMES = new Set(["bearer", "flyv1"]);

/** The token of an `Authorization: <scheme> <token>` header, or undefined for another scheme. */
export function tokenOf(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const space = header.indexOf(" ");
  if (space <= 0 || !AUTH_SCHEMES.has(header.slice(0, space).toLowerCase())) return undefined;
  return header.slice(space + 1).trim();
}

/**
 * Token auth for every route of the remote API and the control API (spec 5):
 * `Authorization: Bearer <token>` or `FlyV1 <token>` (what the platform's official client sends
 * for its tokens); anything else is 401.
 */
export function installAuth(app: FastifyInstance, token: string): void {
  const expected = Buffer.from(token);
  // Callback-style hooks: no promise per request on the hot path.
  app.addHook("onRequest", (request, reply, done) => {
    const header = request.headers.authorization;
    if (!header) {
      reply.code(401).send({
        error: "missing bearer token: send Authorization: Bearer <API_TOKEN> (or FlyV1 <API_TOKEN>)",
      });
      return;
    }
    const given = tokenOf(header);
    if (given === undefined) {
      reply.code(401).send({ error: "unauthorized: the Authorization scheme must be Bearer or FlyV1" });
      return;
    }
    const bytes = Buffer.from(given);
    if (bytes.length !== expected.length || !timingSafeEqual(bytes, expected)) {
      reply.code(401).send({ error: "unauthorized: the bearer token is not valid" });
      return;
    }
    done();
  });
}

/** Every response carries `x-request-id` (the id the request log and error reports can quote). */
export function installRequestId(app: FastifyInstance): void {
  app.addHook("onRequest", (request, reply, done) => {
    reply.header("x-request-id", request.id);
    done();
  });
}

/**
 * Every answer's `Date` header (RFC 9110 6.6.1; the spec names no header of its own) is the
 * emulator's clock, the one its `created_at` fields follow: Node's own would be the wall clock,
 * which a moved virtual clock leaves behind. The sdk reads it to compare the platform's times
 * with its own (a look after a lost answer).
 */
export function installDateHeader(app: FastifyInstance, now: () => number): void {
  let second = Number.NaN;
  let text = "";
  app.addHook("onRequest", (_request, reply, done) => {
    const at = Math.floor(now() / 1000);
    if (at !== second) {
      second = at;
      text = new Date(at * 1000).toUTCString();
    }
    reply.header("date", text);
    done();
  });
}

/** 429 with `Retry-After` beyond the per-token rate (remote API only; see rate-limit.ts). */
export function installRateLimit(app: FastifyInstance, limiter: RateLimiter): void {
  app.addHook("onRequest", (request, reply, done) => {
    if (limiter.limit === undefined || request.url.startsWith(CONTROL_PREFIX)) return done();
    const wait = limiter.take(tokenOf(request.headers.authorization) ?? "");
    if (wait === 0) return done();
    reply
      .code(429)
      .header("retry-after", String(wait))
      .send({
        error: `rate limited: more than ${limiter.limit} requests per second for this token; retry after ${wait} s`,
      });
  });
}

const dropAfter = new WeakSet<FastifyRequest>();
/** Requests whose answer is replaced by this fault's status after the handler ran (`status-after`). */
const statusAfter = new WeakMap<FastifyRequest, Fault>();
/** Requests whose answer waits this long after the handler ran (`latency-after`). */
const delayAfter = new WeakMap<FastifyRequest, number>();

/**
 * Fault injection for the remote API (never `/__emulator/*`): latency before the handler runs
 * or after it ran (a slow way back: its effects are there before the client hears of them),
 * injected statuses before the handler runs or in place of its answer (its effects stay), and
 * connections dropped before the handler runs or after it ran (its effects stay).
 */
export function installFaults(app: FastifyInstance, faults: FaultInjector, log: RequestLog): void {
  /** Applies this request's faults; true when one of them answered (or dropped) it already. */
  const applyFaults = async (request: FastifyRequest, reply: FastifyReply): Promise<boolean> => {
    const path = pathOf(request.url);
    for (const fault of faults.take(request.method, path)) {
      switch (fault.kind) {
        case "latency":
          await new Promise((resolve) => setTimeout(resolve, fault.latencyMs));
          break;
        case "latency-after":
          delayAfter.set(request, (delayAfter.get(request) ?? 0) + (fault.latencyMs ?? 0));
          break;
        case "status": {
          const status = fault.status ?? 503;
          if (fault.retryAfterSeconds !== undefined || status === 429 || status === 503) {
            reply.header("retry-after", String(fault.retryAfterSeconds ?? 1));
          }
          reply.code(status).send({ error: `injected fault ${fault.id}: HTTP ${status}` });
          return true;
        }
        case "status-after":
          statusAfter.set(request, fault);
          break;
        case "drop-before":
          log.add(request.method, path, 0, "before");
          reply.hijack();
          request.raw.socket.destroy();
          return true;
        case "drop-after":
          dropAfter.add(request);
          break;
      }
    }
    return false;
  };
  // Callback-style hooks: no promise per request on the hot path when no fault is registered.
  app.addHook("onRequest", (request, reply, done) => {
    if (!faults.active || request.url.startsWith(CONTROL_PREFIX)) return done();
    // Not `reply.sent`: an injected answer held by a `latency-after` is not sent yet.
    applyFaults(request, reply).then((answered) => {
      if (!answered) done();
    }, done);
  });
  const finish = (
    request: FastifyRequest,
    reply: FastifyReply,
    payload: unknown,
    done: (err: Error | null, payload: unknown) => void,
  ) => {
    if (dropAfter.has(request)) {
      // The handler ran and its state changes stay; the client never learns the outcome.
      log.add(request.method, pathOf(request.url), reply.statusCode, "after");
      request.raw.socket.destroy();
    }
    done(null, payload);
  };
  app.addHook("onSend", (request, reply, payload, done) => {
    const replaced = statusAfter.get(request);
    if (replaced) {
      // The handler ran and its state changes stay; the client hears only the injected status.
      const status = replaced.status ?? 500;
      if (replaced.retryAfterSeconds !== undefined)
        reply.header("retry-after", String(replaced.retryAfterSeconds));
      reply.code(status).header("content-type", "application/json; charset=utf-8");
      payload = JSON.stringify({
        error: `injected fault ${replaced.id}: HTTP ${status} after the request was carried out`,
      });
    }
    // A held answer is held first, then dropped: a slow way back that never arrives.
    const delay = delayAfter.get(request);
    if (delay === undefined) return finish(request, reply, payload, done);
    setTimeout(() => finish(request, reply, payload, done), delay);
  });
}

/** Method, path and status of each remote API request; control routes are left out. */
export function installRequestLog(app: FastifyInstance, log: RequestLog): void {
  app.addHook("onResponse", (request, reply, done) => {
    if (!request.url.startsWith(CONTROL_PREFIX) && !dropAfter.has(request)) {
      log.add(request.method, pathOf(request.url), reply.statusCode);
    }
    done();
  });
}

/** The one place errors become the platform's `{ error }` body. */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler(
    (err: Error & { statusCode?: number; validation?: unknown; code?: string }, request, reply) => {
      if (err instanceof EmulatorError) {
        if (err.retryAfterSeconds !== undefined) reply.header("retry-after", String(err.retryAfterSeconds));
        return reply.code(STATUS_OF_KIND[err.kind]).send({ error: err.message });
      }
      if (err.code === "FST_ERR_VALIDATION") {
        const config = request.routeOptions.config as { validationStatus?: number };
        return reply.code(config.validationStatus ?? 400).send({ error: err.message });
      }
      const status = err.statusCode ?? 500;
      if (status >= 400 && status < 500) return reply.code(status).send({ error: err.message });
      request.log.error(err);
      return reply.code(500).send({ error: `internal emulator error: ${err.message}` });
    },
  );
  app.setNotFoundHandler((request, reply: FastifyReply) => {
    reply.code(404).send({ error: `no route ${request.method} ${pathOf(request.url)}` });
  });
}

/** JSON bodies that may be empty (optional bodies such as rotate_password's). */
export function installJsonParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    if (body === "" || (typeof body === "string" && body.trim() === "")) return done(null, undefined);
    parse(request, body as string, (err, value) => {
      if (err)
        return done(
          Object.assign(new Error(`request body is not valid JSON: ${err.message}`), { statusCode: 400 }),
        );
      done(null, value);
    });
  });
}
