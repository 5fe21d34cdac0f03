import type { ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import {
  ReplicationDivergedError,
  ReplicationTracker,
  TimeoutError,
  type TxEvent,
  waitForPosition,
} from "../../../sdk/index";
import { startServer } from "./helpers";

const DB = "app.db";
const id = (n: number) => n.toString(16).padStart(16, "0");
const sum = (n: number, variant = "a") => `${variant}${n.toString(16).padStart(15, "0")}`;
const tx = (n: number, db = DB, checksum = sum(n)) => ({
  type: "tx",
  db,
  data: {
    txID: id(n),
    postApplyChecksum: checksum,
    pageSize: 4096,
    commit: n,
    timestamp: "2025-01-01T00:00:00Z",
  },
});
const init = (isPrimary = false) => ({
  type: "init",
  data: isPrimary ? { isPrimary } : { isPrimary, hostname: "primary:20202" },
});

/** A node whose /events streams the test writes to; each connection gets `init` at once. */
async function node(opts: { isPrimary?: boolean; status?: number } = {}) {
  const streams: ServerResponse[] = [];
  let connections = 0;
  const srv = await startServer((_req, res) => {
    connections++;
    if (opts.status && opts.status !== 200) {
      res.writeHead(opts.status);
      res.end("down");
      return;
    }
    res.writeHead(200, { "content-type": "application/x-ndjson" });
    res.write(`${JSON.stringify(init(opts.isPrimary))}\n`);
    streams.push(res);
  });
  return {
    url: `${srv.url}/events`,
    connections: () => connections,
    send: (...events: unknown[]) => {
      for (const res of streams)
        if (!res.destroyed) res.write(events.map((e) => `${JSON.stringify(e)}\n`).join(""));
    },
    /** Ends every open stream (the client sees the node end it). */
    endStreams: () => {
      for (const res of streams.splice(0)) res.end();
    },
    close: srv.close,
  };
}

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});
async function started(opts: { isPrimary?: boolean; status?: number } = {}) {
  const n = await node(opts);
  cleanups.push(n.close);
  return n;
}
function track(url: string, opts: ConstructorParameters<typeof ReplicationTracker>[1] = {}) {
  const t = new ReplicationTracker(url, { reconnect: { initialDelayMs: 10, maxDelayMs: 20 }, ...opts });
  cleanups.push(() => t.close());
  return t;
}
/** Resolves once `cond` holds (polling), failing after 2 s. */
async function until(cond: () => boolean): Promise<void> {
  const end = Date.now() + 2_000;
  while (!cond()) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 5));
  }
}
const pending = (t: ReplicationTracker) => (t as unknown as { waiters: Set<unknown> }).waiters.size;

describe("ReplicationTracker", () => {
  it("ready() resolves after init and keeps the primary status", async () => {
    const n = await started();
    const t = track(n.url);
    expect(t.isPrimary).toBeUndefined();
    await t.ready();
    expect(t.isPrimary).toBe(false);
    expect(t.primaryHostname).toBe("primary:20202");
    n.send({ type: "primaryChange", data: { isPrimary: true, hostname: "" } });
    await until(() => t.isPrimary === true);
    await t.ready(); // still resolved
  });

  it("keeps only the latest position per database", async () => {
    const n = await started();
    const t = track(n.url);
    await t.ready();
    expect(t.position(DB)).toBeUndefined();
    n.send(tx(1), tx(2), tx(7, "other.db"), tx(3));
    await until(() => t.position(DB)?.txID === id(3));
    expect(t.position(DB)).toEqual({ txID: id(3), postApplyChecksum: sum(3) });
    expect(t.position("other.db")).toEqual({ txID: id(7), postApplyChecksum: sum(7) });
  });

  it("waitFor resolves at once when the latest position already reached the target", async () => {
    const n = await started();
    const t = track(n.url);
    await t.ready();
    n.send(tx(5));
    await until(() => t.position(DB)?.txID === id(5));
    // No further event arrives: these must not wait for one.
    const short = { timeoutMs: 50 };
    await expect(t.waitFor(DB, { txID: id(5), postApplyChecksum: sum(5) }, short)).resolves.toEqual({
      txID: id(5),
      postApplyChecksum: sum(5),
    });
    await expect(t.waitFor(DB, id(5).toUpperCase(), short)).resolves.toMatchObject({ txID: id(5) });
    await expect(t.waitFor(DB, { txID: id(3), postApplyChecksum: "ffff" }, short)).resolves.toMatchObject({
      txID: id(5),
    });
    expect(pending(t)).toBe(0);
  });

  it("waitFor resolves on the first tx at or past the target, ignoring other databases", async () => {
    const n = await started();
    const t = track(n.url);
    await t.ready();
    let settled = false;
    const waiting = t.waitFor(DB, { txID: id(7), postApplyChecksum: sum(7) }).finally(() => {
      settled = true;
    });
    n.send(tx(6), tx(9, "other.db"));
    await until(() => t.position("other.db") !== undefined);
    expect(settled).toBe(false);
    n.send(tx(8));
    await expect(waiting).resolves.toEqual({ txID: id(8), postApplyChecksum: sum(8) });
    expect(pending(t)).toBe(0);
  });

  it("the same txID with a different checksum rejects as divergence, at once or on arrival", async () => {
    const n = await started();
    const t = track(n.url);
    await t.ready();
    const waiting = t.waitFor(DB, { txID: id(4), postApplyChecksum: sum(4) });
    n.send(tx(4, DB, sum(4, "b")));
    const err = await waiting.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ReplicationDivergedError);
    expect(err).toMatchObject({
      db: DB,
      expected: { txID: id(4), postApplyChecksum: sum(4) },
      actual: { txID: id(4), postApplyChecksum: sum(4, "b") },
    });
    expect((err as Error).message).toMatch(/database app\.db diverged at txID 0000000000000004/);
    await expect(t.waitFor(DB, { txID: id(4), postApplyChecksum: sum(4) })).rejects.toBeInstanceOf(
      ReplicationDivergedError,
    );
    // A bare txID accepts any checksum.
    await expect(t.waitFor(DB, id(4), { timeoutMs: 50 })).resolves.toMatchObject({ txID: id(4) });
  });

  it("a timeout names the database, the target and the last position seen", async () => {
    const n = await started();
    const t = track(n.url);
    await t.ready();
    await expect(t.waitFor(DB, id(9), { timeoutMs: 30 })).rejects.toThrow(
      "database app.db did not reach txID 0000000000000009 within 30 ms; last seen: no tx event for it",
    );
    n.send(tx(2));
    await until(() => t.position(DB) !== undefined);
    const err = await t
      .waitFor(DB, { txID: id(9), postApplyChecksum: sum(9) }, { timeoutMs: 30 })
      .catch((e) => e);
    expect(err).toBeInstanceOf(TimeoutError);
    expect(err.message).toBe(
      `database app.db did not reach txID ${id(9)} (checksum ${sum(9)}) within 30 ms; last seen: txID ${id(2)} checksum ${sum(2)}`,
    );
    await expect(t.nextTx(DB, { timeoutMs: 30 })).rejects.toThrow(
      /no tx event for database app\.db within 30 ms/,
    );
    expect(pending(t)).toBe(0);
  });

  it("nextTx resolves with the next tx of the database only", async () => {
    const n = await started();
    const t = track(n.url);
    await t.ready();
    const next = t.nextTx(DB);
    n.send(tx(1, "other.db"), tx(3));
    await expect(next).resolves.toEqual(tx(3));
  });

  it("a wait's own signal rejects it with the reason; the tracker goes on", async () => {
    const n = await started();
    const t = track(n.url);
    await t.ready();
    const ac = new AbortController();
    const waiting = t.waitFor(DB, id(2), { signal: ac.signal });
    ac.abort(new Error("user gave up"));
    await expect(waiting).rejects.toThrow("user gave up");
    expect(pending(t)).toBe(0);
    const again = t.waitFor(DB, id(2));
    n.send(tx(2));
    await expect(again).resolves.toMatchObject({ txID: id(2) });
  });

  it("close() rejects pending waits, is idempotent, and later waits reject too", async () => {
    const n = await started();
    const t = track(n.url);
    await t.ready();
    n.send(tx(1));
    await until(() => t.position(DB) !== undefined);
    const a = t.waitFor(DB, id(5));
    const b = t.nextTx(DB);
    t.close();
    t.close();
    await expect(a).rejects.toThrow(/closed \(while waiting for database app\.db to reach txID 0+5\)/);
    await expect(b).rejects.toThrow(/closed/);
    await expect(t.waitFor(DB, id(1))).rejects.toThrow(/closed/);
    await expect(t.ready()).rejects.toThrow(/closed/);
    expect(t.position(DB)).toMatchObject({ txID: id(1) });
    expect(pending(t)).toBe(0);
  });

  it("aborting the tracker's signal closes it", async () => {
    const n = await started();
    const ac = new AbortController();
    const t = track(n.url, { signal: ac.signal });
    await t.ready();
    const waiting = t.waitFor(DB, id(5));
    ac.abort();
    await expect(waiting).rejects.toThrow(/closed/);
  });

  it("keeps positions across a reconnect and goes on with the new connection", async () => {
    const n = await started();
    const t = track(n.url);
    await t.ready();
    n.send(tx(5));
    await until(() => t.position(DB)?.txID === id(5));
    n.endStreams();
    await until(() => n.connections() === 2);
    expect(t.position(DB)).toEqual({ txID: id(5), postApplyChecksum: sum(5) });
    await expect(t.waitFor(DB, id(5), { timeoutMs: 50 })).resolves.toMatchObject({ txID: id(5) });
    const waiting = t.waitFor(DB, id(6));
    await new Promise((r) => setTimeout(r, 20)); // the second connection's init is in
    n.send(tx(6));
    await expect(waiting).resolves.toMatchObject({ txID: id(6) });
  });

  it("without reconnect, a failing stream stops the tracker and rejects its waits", async () => {
    const down = await started({ status: 500 });
    const t = track(down.url, { reconnect: false });
    await expect(t.ready()).rejects.toMatchObject({ code: "API_ERROR", status: 500 });
    await expect(t.waitFor(DB, id(1))).rejects.toMatchObject({ code: "API_ERROR" });

    const n = await started();
    const u = track(n.url, { reconnect: false });
    await u.ready();
    const waiting = u.waitFor(DB, id(1));
    n.endStreams();
    await expect(waiting).rejects.toThrow(/event stream of 127\.0\.0\.1:\d+ ended/);
  });

  it("rejects bad arguments with InvalidArgumentError", async () => {
    expect(() => new ReplicationTracker("ftp://x/events")).toThrow(/url must be an http\(s\) URL/);
    const n = await started();
    const t = track(n.url);
    await expect(t.waitFor(DB, "not-hex")).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
    await expect(t.waitFor(DB, id(1), { timeoutMs: 0 })).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
  });
});

describe("ReplicationTracker with positions as a real node writes them", () => {
  // LTX checksums always have their top bit set: the first hex digit is 8 to f.
  const REAL = "8a3f00c2e1d4b5a6";

  it("waits for a flagged checksum and matches it case-insensitively", async () => {
    const n = await started();
    const t = track(n.url);
    await t.ready();
    const waiting = t.waitFor(DB, { txID: id(5), postApplyChecksum: REAL });
    n.send(tx(4, DB, "f000000000000004"), tx(5, DB, REAL.toUpperCase()));
    await expect(waiting).resolves.toEqual({ txID: id(5), postApplyChecksum: REAL.toUpperCase() });
  });

  it("a different flagged checksum at the same txID is a divergence", async () => {
    const n = await started();
    const t = track(n.url);
    await t.ready();
    const waiting = t.waitFor(DB, { txID: id(5), postApplyChecksum: REAL });
    n.send(tx(5, DB, "ca3f00c2e1d4b5a6"));
    await expect(waiting).rejects.toBeInstanceOf(ReplicationDivergedError);
  });

  it("follows a node that becomes primary and, like a real node, leaves its hostname out", async () => {
    const n = await started();
    const t = track(n.url);
    await t.ready();
    expect([t.isPrimary, t.primaryHostname]).toEqual([false, "primary:20202"]);
    n.send({ type: "primaryChange", data: { isPrimary: true } });
    await until(() => t.isPrimary === true);
    expect(t.primaryHostname).toBeUndefined();
    n.send({ type: "primaryChange", data: { isPrimary: false, hostname: "other:20202" } });
    await until(() => t.isPrimary === false);
    expect(t.primaryHostname).toBe("other:20202");
  });

  it("a primary's init without hostname makes the tracker ready and primary", async () => {
    const n = await started({ isPrimary: true });
    const t = track(n.url);
    await t.ready();
    expect([t.isPrimary, t.primaryHostname]).toEqual([true, undefined]);
  });
});

describe("waitForPosition (one-shot tracker)", () => {
  it("resolves with the first tx event at or past the position", async () => {
    const n = await started();
    const waiting = waitForPosition(n.url, DB, id(3), { timeoutMs: 2_000 });
    await until(() => n.connections() === 1);
    await new Promise((r) => setTimeout(r, 20));
    n.send(tx(2), tx(4), tx(5));
    const reached: TxEvent = await waiting;
    expect(reached).toEqual(tx(4));
  });

  it("times out naming the target, and rejects with the caller's abort reason", async () => {
    const n = await started();
    await expect(waitForPosition(n.url, DB, id(3), { timeoutMs: 50 })).rejects.toThrow(
      /database app\.db did not reach txID 0000000000000003 within 50 ms/,
    );
    const ac = new AbortController();
    const waiting = waitForPosition(n.url, DB, id(3), { signal: ac.signal });
    ac.abort(new Error("stop"));
    await expect(waiting).rejects.toThrow("stop");
    await expect(waitForPosition(n.url, DB, "zz")).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
  });
});
