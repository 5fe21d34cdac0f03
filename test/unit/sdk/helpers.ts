import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A request as the local test server saw it. */
export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}

/** A tiny HTTP server on 127.0.0.1 (or a unix socket) whose handler sees the parsed body. */
export async function startServer(
  handler: (req: SeenRequest, res: ServerResponse, raw: IncomingMessage) => void,
  listenOn?: string,
): Promise<{ url: string; seen: SeenRequest[]; server: Server; close(): Promise<void> }> {
  const seen: SeenRequest[] = [];
  const server = createServer((raw, res) => {
    let body = "";
    raw.setEncoding("utf8");
    raw.on("data", (c: string) => {
      body += c;
    });
    raw.on("end", () => {
      const req = { method: raw.method ?? "", url: raw.url ?? "", headers: raw.headers, body };
      seen.push(req);
      handler(req, res, raw);
    });
  });
  await new Promise<void>((resolve) => {
    if (listenOn) server.listen(listenOn, resolve);
    else server.listen(0, "127.0.0.1", resolve);
  });
  const url = listenOn ? `unix:${listenOn}` : `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    seen,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Sends a JSON answer. */
export function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/** A volume body that satisfies VolumeSchema. */
export function volume(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: "vol_1",
    name: "data",
    state: "created",
    size_gb: 3,
    region: "ams",
    zone: "z1",
    encrypted: true,
    attached_machine_id: null,
    attached_alloc_id: null,
    created_at: new Date().toISOString(),
    blocks: 0,
    block_size: 0,
    blocks_free: 0,
    blocks_avail: 0,
    fstype: "",
    snapshot_retention: 5,
    auto_backup_enabled: true,
    host_dedication_key: "",
    ...over,
  };
}
