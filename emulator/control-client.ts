import { type Dispatcher, request } from "undici";
import type { z } from "zod";
import { CONTROL_PREFIX } from "./app-hooks";
import {
  type AdminBody,
  type ClusterStateBody,
  type InstanceView,
  InstanceViewSchema,
  LoginAnswerSchema,
  type LoginBody,
  RateLimitViewSchema,
  type TimeView,
  TimeViewSchema,
  type TxBody,
} from "./control-schemas";
import type { EventCluster } from "./events/cluster";
import type { Fault, FaultSpec } from "./faults";
import type { LoggedRequest } from "./request-log";
import type { Store } from "./store";
import type { DnsRecord } from "./store/dns";
import type { VolumeStore } from "./store/volumes";

/** The emulator's state dump (`GET /__emulator/state`). */
export type EmulatorState = ReturnType<Store["dump"]>;
/** A volume as the control API answers it (attach, detach). */
export type ControlVolume = ReturnType<VolumeStore["attach"]>;
/** A database node (`GET /__emulator/db/nodes`; disconnect and connect answer one without `eventsUrl`). */
export type DbNodeView = ReturnType<EventCluster["describe"]>;
/** The primary's position after `POST /__emulator/db/tx`. */
export type DbPosition = ReturnType<EventCluster["write"]>;
export type { InstanceView, RateLimitView, TimeView } from "./control-schemas";

/** Typed calls to an emulator's control API (`/__emulator/...`), for tests, demos and CI scripts. */
export interface ControlClient {
  health(): Promise<{ ok: boolean }>;
  dns: {
    list(): Promise<DnsRecord[]>;
    /** Adds or replaces records per name and type; answers every record. */
    set(records: DnsRecord[]): Promise<DnsRecord[]>;
    clear(): Promise<void>;
  };
  postgres: {
    setState(cluster: string, state: ClusterStateBody["state"]): Promise<{ name: string; state: string }>;
    setAdmin(
      cluster: string,
      admin: AdminBody,
    ): Promise<{ name: string; available: boolean; retryAfterSeconds: number | undefined }>;
    /** Whether `password` is `username`'s current password (a login would succeed); false on a 401. */
    login(cluster: string, credentials: LoginBody): Promise<boolean>;
  };
  volumes: {
    attach(volumeId: string, machineId: string): Promise<ControlVolume>;
    detach(volumeId: string): Promise<ControlVolume>;
  };
  time: {
    get(): Promise<TimeView>;
    /** Moves the virtual clock on by `ms`, firing every timer that falls due. */
    advance(ms: number): Promise<TimeView>;
    /** `0` freezes time. */
    speed(factor: number): Promise<TimeView>;
  };
  faults: {
    add(spec: FaultSpec): Promise<{ id: string; fault: Fault }>;
    list(): Promise<Fault[]>;
    /** Clears every fault and restarts the seeded sequence. */
    clear(): Promise<void>;
  };
  requests: {
    list(): Promise<LoggedRequest[]>;
    clear(): Promise<void>;
  };
  rateLimit: {
    get(): Promise<number | null>;
    /** Requests per second per token; `null` removes the limit. */
    set(perSecond: number | null): Promise<number | null>;
  };
  state(): Promise<EmulatorState>;
  /** Back to the seed: clears DNS, faults, the request log and the database; start-up rate limit. */
  reset(): Promise<void>;
  instance: {
    get(): Promise<InstanceView>;
    wake(): Promise<InstanceView>;
  };
  db: {
    tx(body: TxBody): Promise<DbPosition>;
    nodes(): Promise<(DbNodeView & { eventsUrl: string })[]>;
    failover(primary: string): Promise<{ primary: string }>;
    disconnect(node: string): Promise<DbNodeView>;
    connect(node: string): Promise<DbNodeView>;
  };
}

type Method = "GET" | "POST" | "PUT" | "DELETE";

/**
 * A client of the control API of the emulator at `url` (its base URL, e.g. `http://127.0.0.1:4280`)
 * with its bearer `token`. A non-2xx answer rejects with an Error naming method, path, status and body.
 * `dispatcher` (an undici Dispatcher) replaces undici's global one, e.g. `new Agent({ pipelining: 0 })`
 * for one connection per call.
 */
export function createControlClient(
  url: string,
  token: string,
  options: { dispatcher?: Dispatcher } = {},
): ControlClient {
  const base = url.replace(/\/+$/, "");

  /** Sends one call; the body of an answer with one of the `accepted` non-2xx statuses is returned too. */
  async function call<T>(
    method: Method,
    path: string,
    body?: unknown,
    accepted: readonly number[] = [],
  ): Promise<T> {
    const res = await request(`${base}${CONTROL_PREFIX}${path}`, {
      method,
      ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.body.text();
    if (accepted.includes(res.statusCode)) return JSON.parse(text) as T;
    if (res.statusCode < 200 || res.statusCode > 299) {
      throw new Error(`emulator control ${method} ${CONTROL_PREFIX}${path}: ${res.statusCode} ${text}`);
    }
    return (text ? JSON.parse(text) : undefined) as T;
  }
  const parsed = async <S extends z.ZodType>(schema: S, method: Method, path: string, body?: unknown) =>
    schema.parse(await call(method, path, body)) as z.infer<S>;
  const seg = encodeURIComponent;

  return {
    health: () => call("GET", "/health"),
    dns: {
      list: async () => (await call<{ records: DnsRecord[] }>("GET", "/dns")).records,
      set: async (records) => (await call<{ records: DnsRecord[] }>("PUT", "/dns", { records })).records,
      clear: async () => {
        await call("DELETE", "/dns");
      },
    },
    postgres: {
      setState: (cluster, state) => call("POST", `/postgres/${seg(cluster)}/state`, { state }),
      setAdmin: (cluster, admin) => call("POST", `/postgres/${seg(cluster)}/admin`, admin),
      // A refused login is a 401 with `ok: false`; a refused token's 401 has no `ok` and throws here.
      login: async (cluster, credentials) =>
        LoginAnswerSchema.parse(await call("POST", `/postgres/${seg(cluster)}/login`, credentials, [401])).ok,
    },
    volumes: {
      attach: (id, machineId) => call("POST", `/volumes/${seg(id)}/attach`, { machine_id: machineId }),
      detach: (id) => call("POST", `/volumes/${seg(id)}/detach`),
    },
    time: {
      get: () => parsed(TimeViewSchema, "GET", "/time"),
      advance: (ms) => parsed(TimeViewSchema, "POST", "/time/advance", { ms }),
      speed: (factor) => parsed(TimeViewSchema, "PUT", "/time/speed", { factor }),
    },
    faults: {
      add: (spec) => call("POST", "/faults", spec),
      list: async () => (await call<{ faults: Fault[] }>("GET", "/faults")).faults,
      clear: async () => {
        await call("DELETE", "/faults");
      },
    },
    requests: {
      list: async () => (await call<{ requests: LoggedRequest[] }>("GET", "/requests")).requests,
      clear: async () => {
        await call("DELETE", "/requests");
      },
    },
    rateLimit: {
      get: async () => (await parsed(RateLimitViewSchema, "GET", "/rate-limit")).perSecond,
      set: async (perSecond) =>
        (await parsed(RateLimitViewSchema, "PUT", "/rate-limit", { perSecond })).perSecond,
    },
    state: () => call("GET", "/state"),
    reset: async () => {
      await call("POST", "/reset");
    },
    instance: {
      get: () => parsed(InstanceViewSchema, "GET", "/instance"),
      wake: () => parsed(InstanceViewSchema, "POST", "/instance/wake"),
    },
    db: {
      tx: (body) => call("POST", "/db/tx", body),
      nodes: () => call("GET", "/db/nodes"),
      failover: (primary) => call("POST", "/db/failover", { primary }),
      disconnect: (node) => call("POST", `/db/nodes/${seg(node)}/disconnect`),
      connect: (node) => call("POST", `/db/nodes/${seg(node)}/connect`),
    },
  };
}
