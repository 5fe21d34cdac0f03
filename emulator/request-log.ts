export interface LoggedRequest {
  method: string;
  path: string;
  /** HTTP status; 0 when the connection was dropped before any response. */
  status: number;
  at: string;
  /** Set when a fault dropped the connection (`drop-before` or `drop-after`). */
  dropped?: "before" | "after";
}

interface Entry {
  method: string;
  path: string;
  status: number;
  at: number;
  dropped?: "before" | "after";
}

/**
 * The last requests of the remote API (never headers or bodies) in a fixed-size ring, so the
 * hot path costs one slot write and memory stays bounded.
 */
export class RequestLog {
  private ring: (Entry | undefined)[];
  private next = 0;
  private size = 0;

  constructor(private readonly max = 10_000) {
    this.ring = new Array(max);
  }

  add(method: string, path: string, status: number, dropped?: "before" | "after"): void {
    const entry: Entry = { method, path, status, at: Date.now() };
    if (dropped) entry.dropped = dropped;
    this.ring[this.next] = entry;
    this.next = (this.next + 1) % this.max;
    if (this.size < this.max) this.size++;
  }

  list(): LoggedRequest[] {
    const out: LoggedRequest[] = [];
    const first = (this.next - this.size + this.max) % this.max;
    for (let i = 0; i < this.size; i++) {
      const e = this.ring[(first + i) % this.max] as Entry;
      out.push({ ...e, at: new Date(e.at).toISOString() });
    }
    return out;
  }

  clear(): void {
    this.ring = new Array(this.max);
    this.next = 0;
    this.size = 0;
  }
}
