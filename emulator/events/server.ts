import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { ResponseShaper } from "../responses";
import type { DbNode, EventCluster, StreamEvent } from "./cluster";

export interface EventListener {
  node: DbNode;
  server: Server;
  url: string;
}

/**
 * One HTTP listener per database node serving `GET /events` as NDJSON, one event per write.
 * A consumer whose unsent bytes pass `bufferBytes` is cut off, so memory stays bounded.
 */
export class EventServers {
  private listeners: EventListener[] = [];
  private streams = new Set<ServerResponse>();

  constructor(
    private readonly cluster: EventCluster,
    private readonly bufferBytes: number,
    private readonly shape: ResponseShaper,
  ) {}

  /** Listens for every node; the first node gets `primaryPort`, the others free ports. */
  async listen(host: string, primaryPort: number): Promise<EventListener[]> {
    for (const [i, node] of this.cluster.nodes.entries()) {
      const server = createServer((req, res) => this.handle(node, req, res));
      server.keepAliveTimeout = 5000;
      await new Promise<void>((resolve, reject) => {
        server.once("error", reject);
        server.listen(i === 0 ? primaryPort : 0, host, () => {
          server.off("error", reject);
          resolve();
        });
      });
      const port = (server.address() as AddressInfo).port;
      const hostPart = host.includes(":") ? `[${host}]` : host;
      node.hostname = `${hostPart}:${port}`;
      this.listeners.push({ node, server, url: `http://${hostPart}:${port}/events` });
    }
    return this.listeners;
  }

  urlOf(node: DbNode): string {
    return this.listeners.find((l) => l.node === node)?.url ?? "";
  }

  async close(): Promise<void> {
    for (const res of this.streams) res.end();
    await Promise.all(
      this.listeners.map(
        (l) =>
          new Promise<void>((resolve) => {
            l.server.close(() => resolve());
            l.server.closeAllConnections();
          }),
      ),
    );
    this.listeners = [];
  }

  private handle(node: DbNode, req: IncomingMessage, res: ServerResponse): void {
    const path = (req.url ?? "/").split("?")[0];
    if (req.method !== "GET" || path !== "/events") {
      res.writeHead(404, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: `no route ${req.method} ${path}: the event stream is GET /events` }));
      return;
    }
    res.writeHead(200, { "content-type": "application/x-ndjson", "cache-control": "no-store" });
    res.flushHeaders();
    res.socket?.setNoDelay(true);
    this.streams.add(res);
    let unsubscribe = () => {};
    const stop = () => {
      unsubscribe();
      this.streams.delete(res);
    };
    unsubscribe = this.cluster.subscribe(node, (event: StreamEvent) => {
      if (res.destroyed) return stop();
      if (res.writableLength > this.bufferBytes) {
        node.droppedSubscribers++;
        stop();
        res.destroy();
        return;
      }
      res.write(`${JSON.stringify(this.shape.event(event))}\n`);
    });
    res.on("close", stop);
  }
}
