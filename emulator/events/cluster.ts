import { createHash } from "node:crypto";
import type { InitEvent, PrimaryChangeEvent, TxEvent } from "../../sdk/schemas";
import type { VirtualClock } from "../clock";
import { conflict, notFound } from "../errors";

export type StreamEvent = InitEvent | TxEvent | PrimaryChangeEvent;
export type Subscriber = (event: StreamEvent) => void;

interface DbState {
  txID: number;
  checksum: string;
  pageSize: number;
  commit: number;
}

export interface DbNode {
  name: string;
  /** `host:port` of the node's event listener, set once it listens. */
  hostname: string;
  isPrimary: boolean;
  /** A replica's link to the primary. */
  connected: boolean;
  dbs: Map<string, DbState>;
  subscribers: Set<Subscriber>;
  /** Transactions sent by the primary, waiting for the replication lag. */
  inflight: TxEvent[];
  /** Transactions missed while disconnected; beyond MAX_BACKLOG the node copies state silently. */
  backlog: TxEvent[];
  last: { db: string; txID: string; postApplyChecksum: string } | null;
  droppedSubscribers: number;
}

export interface TxOptions {
  db: string;
  count?: number;
  pageSize?: number;
  pages?: number;
}

const MAX_BACKLOG = 10_000;
const hex16 = (n: number) => n.toString(16).padStart(16, "0");

/**
 * A database checksum as a node writes it: 16 hex digits with the top bit set (the LTX format's
 * checksum flag, which keeps a real checksum from ever being zero).
 */
function ltxChecksum(...parts: (string | number)[]): string {
  const hex = createHash("sha256").update(parts.join("|")).digest("hex").slice(0, 16);
  return (Number.parseInt(hex[0] as string, 16) | 8).toString(16) + hex.slice(1);
}

/**
 * A small replicated database (spec 4.5, 6): one primary and replicas. Writes happen on the
 * primary and reach each connected replica after the replication lag (virtual time).
 */
export class EventCluster {
  readonly nodes: DbNode[];

  constructor(
    private readonly clock: VirtualClock,
    private readonly lagMs: number,
    names: string[] = ["node-a", "node-b"],
  ) {
    this.nodes = names.map((name, i) => ({
      name,
      hostname: "",
      isPrimary: i === 0,
      connected: true,
      dbs: new Map(),
      subscribers: new Set(),
      inflight: [],
      backlog: [],
      last: null,
      droppedSubscribers: 0,
    }));
  }

  primary(): DbNode {
    return this.nodes.find((n) => n.isPrimary) as DbNode;
  }

  node(name: string): DbNode {
    const node = this.nodes.find((n) => n.name === name);
    if (!node)
      throw notFound(
        `database node "${name}" not found (nodes: ${this.nodes.map((n) => n.name).join(", ")})`,
      );
    return node;
  }

  /**
   * Adds a subscriber; it gets `init` at once, then every event of the node. `hostname` is the
   * primary's, empty on the primary itself and on a replica cut off from it.
   */
  subscribe(node: DbNode, subscriber: Subscriber): () => void {
    const data: InitEvent["data"] = { isPrimary: node.isPrimary, hostname: this.primaryHostnameFor(node) };
    node.subscribers.add(subscriber);
    subscriber({ type: "init", data });
    return () => node.subscribers.delete(subscriber);
  }

  /** Writes `count` transactions on the primary; returns the primary's new position. */
  write(options: TxOptions) {
    const count = options.count ?? 1;
    const primary = this.primary();
    for (let i = 0; i < count; i++) {
      const prev = primary.dbs.get(options.db);
      const pageSize = options.pageSize ?? prev?.pageSize ?? 4096;
      const txID = (prev?.txID ?? 0) + 1;
      const commit = (prev?.commit ?? 0) + (options.pages ?? 1);
      const checksum = ltxChecksum(prev?.checksum ?? "", options.db, txID, commit, pageSize);
      const event: TxEvent = {
        type: "tx",
        db: options.db,
        data: {
          txID: hex16(txID),
          postApplyChecksum: checksum,
          pageSize,
          commit,
          timestamp: this.clock.iso(),
        },
      };
      this.apply(primary, event);
      for (const replica of this.nodes) if (!replica.isPrimary) this.send(replica, event);
    }
    return { node: primary.name, ...this.position(primary, options.db) };
  }

  failover(name: string): void {
    const target = this.node(name);
    if (target.isPrimary) return;
    this.drain(target, target.inflight);
    this.drain(target, target.backlog);
    for (const n of this.nodes) {
      n.isPrimary = n === target;
      n.connected = true;
    }
    // The new primary names no primary: it is the one (a real node leaves its hostname empty).
    for (const n of this.nodes)
      this.emit(n, {
        type: "primaryChange",
        data: { isPrimary: n.isPrimary, hostname: this.primaryHostnameFor(n) },
      });
  }

  disconnect(name: string): void {
    const node = this.replica(name);
    if (!node.connected) return;
    node.connected = false;
    this.emit(node, { type: "primaryChange", data: { isPrimary: false, hostname: "" } });
  }

  connect(name: string): void {
    const node = this.replica(name);
    if (node.connected) return;
    node.connected = true;
    this.emit(node, { type: "primaryChange", data: { isPrimary: false, hostname: this.primary().hostname } });
    const missed = node.backlog.splice(0);
    for (const event of missed) this.send(node, event);
  }

  /** What `node` reports as the primary's hostname: empty on the primary and when disconnected. */
  private primaryHostnameFor(node: DbNode): string {
    return node.isPrimary || !node.connected ? "" : this.primary().hostname;
  }

  position(node: DbNode, db: string) {
    const state = node.dbs.get(db);
    return {
      db,
      txID: hex16(state?.txID ?? 0),
      postApplyChecksum: state?.checksum ?? "0".repeat(16),
      pageSize: state?.pageSize ?? 4096,
      commit: state?.commit ?? 0,
    };
  }

  describe(node: DbNode) {
    return {
      name: node.name,
      hostname: node.hostname,
      isPrimary: node.isPrimary,
      connected: node.isPrimary || node.connected,
      position: node.last,
      databases: Object.fromEntries([...node.dbs.keys()].map((db) => [db, this.position(node, db)])),
      subscribers: node.subscribers.size,
      droppedSubscribers: node.droppedSubscribers,
    };
  }

  /** Forgets all data and makes the first node primary again (subscribers stay connected). */
  reset(): void {
    this.failover(this.nodes[0]?.name as string);
    for (const n of this.nodes) {
      n.dbs.clear();
      n.inflight = [];
      n.backlog = [];
      n.last = null;
      if (!n.connected) this.connect(n.name);
    }
  }

  private replica(name: string): DbNode {
    const node = this.node(name);
    if (node.isPrimary) throw conflict(`node "${name}" is the primary; fail over to another node first`);
    return node;
  }

  private send(replica: DbNode, event: TxEvent): void {
    if (!replica.connected) {
      this.addToBacklog(replica, event);
      return;
    }
    replica.inflight.push(event);
    this.clock.schedule(this.lagMs, () => {
      // The queue may have been drained by a promotion meanwhile.
      const next = replica.inflight.shift();
      if (!next) return;
      if (replica.connected || replica.isPrimary) this.apply(replica, next);
      else this.addToBacklog(replica, next);
    });
  }

  private addToBacklog(replica: DbNode, event: TxEvent): void {
    if (replica.backlog.length < MAX_BACKLOG) replica.backlog.push(event);
    else this.copyState(replica, event);
  }

  private drain(node: DbNode, queue: TxEvent[]): void {
    for (const event of queue.splice(0)) this.apply(node, event);
  }

  private apply(node: DbNode, event: TxEvent): void {
    this.copyState(node, event);
    this.emit(node, event);
  }

  private copyState(node: DbNode, event: TxEvent): void {
    const d = event.data;
    node.dbs.set(event.db, {
      txID: Number.parseInt(d.txID, 16),
      checksum: d.postApplyChecksum,
      pageSize: d.pageSize,
      commit: d.commit,
    });
    node.last = { db: event.db, txID: d.txID, postApplyChecksum: d.postApplyChecksum };
  }

  private emit(node: DbNode, event: StreamEvent): void {
    for (const s of [...node.subscribers]) s(event);
  }
}
