/**
 * A tiny platform stand-in that answers with the hand-written fixtures: plain node:http on
 * 127.0.0.1 (remote API) and on a unix socket (task API). `serve(...names)` picks the fixtures
 * that answer from now on, each the requests of its endpoint; a request none of them answers gets
 * 404, except the volume list, which answers `[]` (create volume lists first).
 */
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fixtureInfo, fixtureText, matchesEndpoint } from "./fixtures";

export interface FixtureServer {
  /** Base URL of the remote API, `http://127.0.0.1:<port>`. */
  url: string;
  /** Unix socket of the task API. */
  socketPath: string;
  /** Token the server expects. */
  token: string;
  /** Answers the requests of each fixture's endpoint with that fixture from now on. */
  serve(...names: string[]): void;
  /** `METHOD /path` of every request seen since the last `serve`. */
  requests: string[];
  close(): Promise<void>;
}

/** Starts the server on 127.0.0.1 (free port) and on a fresh unix socket. */
export async function startFixtureServer(): Promise<FixtureServer> {
  const token = `fixture-${randomBytes(6).toString("hex")}`;
  let current: string[] = [];
  const requests: string[] = [];

  // The remote API wants the token; the task socket carries none.
  const handler = (requireToken: boolean) => (req: IncomingMessage, res: ServerResponse) => {
    const method = req.method ?? "GET";
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    requests.push(`${method} ${path}`);
    req.resume();
    req.on("end", () => {
      const send = (status: number, body: string) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(body);
      };
      if (requireToken && req.headers.authorization !== `Bearer ${token}`) {
        return send(401, '{"error":"unauthorized"}');
      }
      for (const name of current) {
        const info = fixtureInfo(name);
        if (matchesEndpoint(info.endpoint, method, path)) return send(info.status, fixtureText(name));
      }
      if (method === "GET" && /^\/v1\/apps\/[^/]+\/volumes$/.test(path)) return send(200, "[]");
      send(404, JSON.stringify({ error: `no fixture answers ${method} ${path}` }));
    });
  };

  const tcp: Server = createServer(handler(true));
  const unix: Server = createServer(handler(false));
  const socketPath = join(tmpdir(), `wire-fixtures-${process.pid}-${randomBytes(4).toString("hex")}.sock`);
  await new Promise<void>((resolve) => tcp.listen(0, "127.0.0.1", resolve));
  await new Promise<void>((resolve) => unix.listen(socketPath, resolve));
  const { port } = tcp.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    socketPath,
    token,
    requests,
    serve(...names) {
      for (const name of names) fixtureInfo(name);
      current = names;
      requests.length = 0;
    },
    close: async () => {
      tcp.closeAllConnections();
      unix.closeAllConnections();
      await Promise.all([
        new Promise((resolve) => tcp.close(resolve)),
        new Promise((resolve) => unix.close(resolve)),
      ]);
    },
  };
}
