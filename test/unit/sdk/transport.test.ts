import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  AmbiguousRequestError,
  ApiError,
  type DebugEntry,
  PlatformClient,
  ResponseValidationError,
  TransportError,
} from "../../../sdk/index";
import { json, startServer, volume } from "./helpers";

const TOKEN = "tok_very_secret";
let close: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(close.map((c) => c()));
  close = [];
});

async function setup(
  handler: Parameters<typeof startServer>[0],
  extra: Partial<ConstructorParameters<typeof PlatformClient>[0]> = {},
) {
  const srv = await startServer(handler);
  const client = new PlatformClient({ baseUrl: srv.url, token: TOKEN, maxRetries: 3, ...extra });
  close.push(() => client.close(), srv.close);
  return { srv, client };
}

const fixture = (name: string) =>
  JSON.parse(readFileSync(join(__dirname, "../../fixtures/wire", name), "utf8")) as Record<string, unknown>;

/** The success body of each route these tests call: a volume, or what snapshot and extend answer. */
function answerOf(url: string): unknown {
  if (url.endsWith("/snapshots")) return fixture("snapshot-create.spec.json");
  if (url.endsWith("/rotate_password")) return { data: { username: "u", password: "p" } };
  if (url.endsWith("/extend")) return { volume: volume({ size_gb: 5 }), needs_restart: false };
  return volume();
}

/** Answers with `first` for the first `n` requests, then with the route's success body. */
function failing(n: number, first: (res: import("node:http").ServerResponse) => void) {
  let count = 0;
  return (req: { url: string }, res: import("node:http").ServerResponse) => {
    if (count++ < n) first(res);
    else json(res, 200, answerOf(req.url));
  };
}

const drop = (res: import("node:http").ServerResponse) => res.socket?.destroy();

describe("retries", () => {
  it.each([
    ["GET", 429],
    ["GET", 503],
    ["POST", 429],
    ["POST rotate_password", 503],
    ["PUT", 503],
    ["DELETE", 429],
  ])("%s is retried after %i with Retry-After (nothing happened)", async (method, status) => {
    const { srv, client } = await setup(
      failing(1, (res) => json(res, status, { error: "busy" }, { "retry-after": "1" })),
    );
    const started = Date.now();
    if (method === "GET") expect(await client.volumes.get("a", "v")).toMatchObject({ id: "vol_1" });
    if (method === "POST")
      expect(await client.volumes.createSnapshot("a", "v")).toMatchObject({
        graph_id: "vs_MgLAggLZkYx89fLy",
      });
    if (method === "POST rotate_password")
      expect(await client.postgres.rotatePassword("pg", "u")).toEqual({ username: "u", password: "p" });
    if (method === "PUT") expect(await client.volumes.update("a", "v", {})).toMatchObject({ id: "vol_1" });
    if (method === "DELETE") expect(await client.volumes.delete("a", "v")).toMatchObject({ id: "vol_1" });
    expect(srv.seen.length).toBe(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it("Retry-After given as an HTTP date is honoured", async () => {
    const { srv, client } = await setup(
      failing(1, (res) =>
        json(res, 429, { error: "busy" }, { "retry-after": new Date(Date.now() + 2000).toUTCString() }),
      ),
    );
    const started = Date.now();
    await client.volumes.get("a", "v");
    expect(srv.seen.length).toBe(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it.each([502, 504])("GET is retried after %i", async (status) => {
    const { srv, client } = await setup(failing(2, (res) => json(res, status, { error: "gw" })));
    await client.volumes.get("a", "v");
    expect(srv.seen.length).toBe(3);
  });

  it.each([502, 504])("POST is not retried after %i: outcome unknown", async (status) => {
    const { srv, client } = await setup(failing(5, (res) => json(res, status, { error: "gw" })));
    await expect(client.volumes.createSnapshot("a", "v")).rejects.toBeInstanceOf(AmbiguousRequestError);
    expect(srv.seen.length).toBe(1);
  });

  // The DNS check is a POST that only reads (spec 4.2 rule 4): repeated like a GET.
  const checkAnswer = JSON.parse(
    readFileSync(join(__dirname, "../../fixtures/wire/certificate-check.spec.json"), "utf8"),
  );

  it.each([502, 504])(
    "the certificate check (a POST that only reads) is retried after %i",
    async (status) => {
      let count = 0;
      const { srv, client } = await setup((_req, res) =>
        count++ < 1 ? json(res, status, { error: "gw" }) : json(res, 200, checkAnswer),
      );
      const answer = await client.certificates.check("a", "h.example.com");
      expect(answer.hostname).toBe(checkAnswer.hostname);
      expect(srv.seen.map((r) => `${r.method} ${r.url}`)).toEqual([
        "POST /v1/apps/a/certificates/h.example.com/check",
        "POST /v1/apps/a/certificates/h.example.com/check",
      ]);
    },
  );

  it("the certificate check is retried after the connection drops", async () => {
    let count = 0;
    const { srv, client } = await setup((_req, res) =>
      count++ < 1 ? drop(res) : json(res, 200, checkAnswer),
    );
    await expect(client.certificates.check("a", "h.example.com")).resolves.toMatchObject({
      hostname: checkAnswer.hostname,
    });
    expect(srv.seen.length).toBe(2);
  });

  it("GET retries on a reset connection", async () => {
    const { srv, client } = await setup(failing(2, drop));
    await expect(client.volumes.get("a", "v")).resolves.toMatchObject({ id: "vol_1" });
    expect(srv.seen.length).toBe(3);
  });

  it("PUT and DELETE retry on a reset connection", async () => {
    const { srv, client } = await setup(failing(1, drop));
    expect(await client.volumes.update("a", "v", { snapshot_retention: 9 })).toMatchObject({ id: "vol_1" });
    expect(await client.volumes.delete("a", "v")).toMatchObject({ id: "vol_1" });
    expect(srv.seen.map((r) => r.method)).toEqual(["PUT", "PUT", "DELETE"]);
  });

  it.each([500, 502, 503, 504])("PUT and DELETE are sent again after a %i (idempotent)", async (status) => {
    const { srv, client } = await setup(failing(1, (res) => json(res, status, { error: "x" })));
    expect(await client.volumes.delete("a", "v")).toMatchObject({ id: "vol_1" });
    expect(srv.seen.map((r) => r.method)).toEqual(["DELETE", "DELETE"]);
  });

  it.each([
    ["an on-demand snapshot", (c: PlatformClient) => c.volumes.createSnapshot("a", "v")],
    ["an ACME request", (c: PlatformClient) => c.certificates.requestAcme("a", "h.example.com")],
    ["a rotation", (c: PlatformClient) => c.postgres.rotatePassword("pg", "u")],
  ])(
    "%s answered 500, 502, 503 or 504 is an unknown outcome, never sent again blindly",
    async (_what, call) => {
      for (const status of [500, 502, 503, 504]) {
        const { srv, client } = await setup((_req, res) => json(res, status, { error: "x" }));
        // rotate_password's 503 is the spec's "not carried out": sent again (the case above).
        if (status === 503 && _what === "a rotation") continue;
        const err = await call(client).catch((e) => e);
        expect(err, String(status)).toBeInstanceOf(AmbiguousRequestError);
        expect(err.message).toContain(`failed with ${status}`);
        expect(srv.seen, String(status)).toHaveLength(1);
      }
    },
  );

  it("an extend whose outcome is unknown is looked up before it is sent again: landed, it is not sent again", async () => {
    const { srv, client } = await setup((req, res) => {
      if (req.method === "PUT") return json(res, 500, { error: "x" });
      json(res, 200, volume({ size_gb: 5, attached_machine_id: "m_1" }));
    });
    expect(await client.volumes.extend("a", "v", 5)).toMatchObject({
      volume: { size_gb: 5 },
      needs_restart: true,
    });
    expect(srv.seen.map((r) => r.method)).toEqual(["PUT", "GET"]);
  });

  it("an extend whose outcome is unknown and that did not land is sent again after the look", async () => {
    let puts = 0;
    const { srv, client } = await setup((req, res) => {
      if (req.method === "PUT" && puts++ === 0) return res.socket?.destroy();
      if (req.method === "PUT")
        return json(res, 200, { volume: volume({ size_gb: 5 }), needs_restart: false });
      json(res, 200, volume({ size_gb: 3 }));
    });
    expect(await client.volumes.extend("a", "v", 5)).toMatchObject({ volume: { size_gb: 5 } });
    expect(srv.seen.map((r) => r.method)).toEqual(["PUT", "GET", "PUT"]);
  });

  it("POST is not retried after the connection drops", async () => {
    const { srv, client } = await setup(failing(5, drop));
    const err = await client.postgres.rotatePassword("pg", "u").catch((e) => e);
    expect(err).toBeInstanceOf(AmbiguousRequestError);
    expect(err.message).toMatch(/may have changed.*Rotate it again/);
    expect(srv.seen.length).toBe(1);
  });

  it("POST is not retried after a timeout", async () => {
    const { srv, client } = await setup(() => {}, { timeoutMs: 300 });
    await expect(client.certificates.requestAcme("a", "h.example.com")).rejects.toBeInstanceOf(
      AmbiguousRequestError,
    );
    expect(srv.seen.length).toBe(1);
  });

  it("GET is retried after a timeout and gives up with a TransportError", async () => {
    const { srv, client } = await setup(() => {}, { timeoutMs: 200, maxRetries: 2 });
    await expect(client.volumes.get("a", "v")).rejects.toBeInstanceOf(TransportError);
    expect(srv.seen.length).toBe(3);
  });

  it("a refused connection is retried even for POST (the request never left)", async () => {
    const srv = await startServer(() => {});
    const url = srv.url;
    await srv.close();
    const client = new PlatformClient({ baseUrl: url, token: TOKEN, maxRetries: 2 });
    close.push(() => client.close());
    const err = await client.volumes.createSnapshot("a", "v").catch((e) => e);
    expect(err).toBeInstanceOf(TransportError);
    expect(err.notSent).toBe(true);
  });

  it("gives up after maxRetries and throws the last ApiError with retryAfterSeconds", async () => {
    const { srv, client } = await setup(
      failing(10, (res) => json(res, 503, { error: "busy" }, { "retry-after": "0" })),
      {
        maxRetries: 2,
      },
    );
    const err = await client.volumes.get("a", "v").catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 503, retryAfterSeconds: 0, platformMessage: "busy", method: "GET" });
    expect(srv.seen.length).toBe(3);
  });

  it("does not wait past the overall deadline for a long Retry-After", async () => {
    const { srv, client } = await setup(
      failing(10, (res) => json(res, 429, { error: "x" }, { "retry-after": "30" })),
      {
        deadlineMs: 2000,
      },
    );
    const started = Date.now();
    const err = await client.volumes.get("a", "v").catch((e) => e);
    expect(err).toMatchObject({ status: 429, retryAfterSeconds: 30 });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(srv.seen.length).toBe(1);
  });

  it("4xx answers other than 429 are not retried", async () => {
    const { srv, client } = await setup(failing(10, (res) => json(res, 404, { error: "volume not found" })));
    const err = await client.volumes.get("a", "v").catch((e) => e);
    expect(err).toMatchObject({ status: 404, hint: "The volume was not found" });
    expect(srv.seen.length).toBe(1);
  });

  it("an aborted signal stops the call with its reason, also during backoff", async () => {
    const { client } = await setup(
      failing(10, (res) => json(res, 429, { error: "x" }, { "retry-after": "10" })),
    );
    const ac = new AbortController();
    setTimeout(() => ac.abort(new Error("user stop")), 200);
    await expect(client.volumes.get("a", "v", { signal: ac.signal })).rejects.toThrow("user stop");
  });
});

describe("responses", () => {
  it("a body that does not match the schema names the endpoint and the field", async () => {
    const { client } = await setup((_req, res) => json(res, 200, [volume(), volume({ size_gb: "big" })]));
    const err = await client.volumes.list("my-app").catch((e) => e);
    expect(err).toBeInstanceOf(ResponseValidationError);
    expect(err.endpoint).toBe("GET /v1/apps/my-app/volumes");
    expect(err.fieldPath).toBe("[1].size_gb");
  });

  it("a non-JSON success body is a validation error at the root", async () => {
    const { client } = await setup((_req, res) => res.end("<html>"));
    await expect(client.volumes.get("a", "v")).rejects.toMatchObject({
      code: "RESPONSE_VALIDATION",
      fieldPath: "(root)",
    });
  });

  it("unknown fields are tolerated", async () => {
    const { client } = await setup((_req, res) => json(res, 200, volume({ brand_new_field: { x: 1 } })));
    await expect(client.volumes.get("a", "v")).resolves.toMatchObject({ id: "vol_1" });
  });

  it("a non-JSON error body becomes the platform message", async () => {
    const { client } = await setup((_req, res) => {
      res.writeHead(500);
      res.end("internal oops");
    });
    await expect(client.volumes.get("a", "v")).rejects.toMatchObject({
      status: 500,
      platformMessage: "internal oops",
    });
  });

  it("the snapshot result is unwrapped from {Msg:{backup}}", async () => {
    const backup = {
      id: "b1",
      app_id: "a",
      volume_id: "v",
      state: "prepare",
      type: "BACKUP_TYPE_ON_DEMAND",
      message: "",
      created_at: "t",
      updated_at: "t",
      finished_at: null,
      graph_id: "vs_1",
    };
    const { client } = await setup((_req, res) => json(res, 200, { Msg: { backup } }));
    await expect(client.volumes.createSnapshot("a", "v")).resolves.toEqual(backup);
  });
});

describe("requests", () => {
  it("sends the bearer token, JSON body and path prefix of the base URL", async () => {
    const srv = await startServer((_req, res) => json(res, 200, volume()));
    const client = new PlatformClient({ baseUrl: `${srv.url}/api/`, token: TOKEN, userAgent: "ua/1" });
    close.push(() => client.close(), srv.close);
    await client.volumes.update("a", "v", { auto_backup_enabled: false });
    const seen = srv.seen[0];
    expect(seen?.url).toBe("/api/v1/apps/a/volumes/v");
    expect(seen?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(seen?.headers["user-agent"]).toBe("ua/1");
    expect(seen?.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(seen?.body ?? "")).toEqual({ auto_backup_enabled: false });
  });

  it("the debug hook sees every attempt with authorization redacted", async () => {
    const entries: DebugEntry[] = [];
    const { client } = await setup(
      failing(1, (res) => json(res, 503, { error: "x" }, { "retry-after": "0" })),
      {
        onDebug: (e) => entries.push(e),
      },
    );
    await client.volumes.get("a", "v");
    expect(entries.map((e) => [e.method, e.path, e.status, e.attempt])).toEqual([
      ["GET", "/v1/apps/a/volumes/v", 503, 0],
      ["GET", "/v1/apps/a/volumes/v", 200, 1],
    ]);
    expect(JSON.stringify(entries)).not.toContain(TOKEN);
    expect(entries[0]?.headers.authorization).toBe("Bearer [redacted]");
  });

  it("the token appears in no error message", async () => {
    const { client } = await setup((_req, res) => json(res, 401, { error: "unauthorized" }));
    const err = await client.postgres.rotatePassword("pg", "u").catch((e) => e);
    expect(err.reason).toBe("unauthorized");
    expect(`${err.message} ${err.stack} ${JSON.stringify(err)}`).not.toContain(TOKEN);
  });

  it("rotatePassword sends kill_sessions only when given", async () => {
    const { srv, client } = await setup((_req, res) =>
      json(res, 200, { data: { username: "u", password: "p" } }),
    );
    await client.postgres.rotatePassword("pg", "u");
    await client.postgres.rotatePassword("pg", "u", { killSessions: true });
    expect(srv.seen.map((r) => JSON.parse(r.body))).toEqual([{}, { kill_sessions: true }]);
  });
});

describe("request id", () => {
  it.each([
    ["x-request-id", { "x-request-id": "req-123" }, "req-123"],
    [
      "fly-request-id",
      { "fly-request-id": "01JQSECXHAJR7ZPGFRTQW5EK95-ord" },
      "01JQSECXHAJR7ZPGFRTQW5EK95-ord",
    ],
    ["x-request-id first", { "x-request-id": "a", "fly-request-id": "b" }, "a"],
  ])("an ApiError carries the platform's %s and quotes it", async (_rule, headers, id) => {
    const { client } = await setup((_req, res) => json(res, 404, { error: "volume not found" }, headers));
    const err = (await client.volumes.get("a", "v").catch((e) => e)) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect(err.requestId).toBe(id);
    expect(err.message).toContain(`(request id ${id})`);
  });

  it("without one, the error has none", async () => {
    const { client } = await setup((_req, res) => json(res, 400, { error: "bad" }));
    const err = (await client.volumes.get("a", "v").catch((e) => e)) as ApiError;
    expect(err.requestId).toBeUndefined();
    expect(err.message).not.toContain("request id");
  });
});
