import type { AddressInfo } from "node:net";
import { connect, createServer, type Socket } from "node:net";
import { describe, expect, it } from "vitest";
import {
  databaseSizeBytes,
  isTx,
  type PlatformEvent,
  PrimaryTracker,
  ReplicationTracker,
  replicationPosition,
  subscribeEvents,
  type TxEvent,
  waitForPosition,
} from "../../../sdk/index";
import { SDK_TIMING, startTestEmulator, useTestEmulator } from "../../support/emulator";

const h = useTestEmulator({ emulator: { timing: SDK_TIMING } });

/** Reads events until `stop` says so (or 10 s pass). */
async function take(url: string, stop: (seen: PlatformEvent[]) => boolean, reconnect = false) {
  const ac = new AbortController();
  const timer = setTimeout(() => ac.abort(), 10_000);
  const seen: PlatformEvent[] = [];
  const malformed: string[] = [];
  for await (const ev of subscribeEvents(url, {
    signal: ac.signal,
    reconnect: reconnect ? { initialDelayMs: 20, maxDelayMs: 50 } : false,
    onMalformedLine: (l) => malformed.push(l),
  })) {
    seen.push(ev);
    if (stop(seen)) break;
  }
  clearTimeout(timer);
  return { seen, malformed };
}

describe("event stream against the emulator", () => {
  it("init comes first, then one typed tx event per write, with position and size helpers", async () => {
    const started = take(h.emu.eventsUrl, (s) => s.filter(isTx).length === 3);
    await new Promise((r) => setTimeout(r, 100));
    await h.control.db.tx({ db: "it.db", count: 3 });
    const { seen, malformed } = await started;
    expect(seen[0]).toMatchObject({ type: "init", data: { isPrimary: true } });
    const txs = seen.filter(isTx);
    expect(txs.map((t) => t.db)).toEqual(["it.db", "it.db", "it.db"]);
    const last = txs[2] as TxEvent;
    expect(replicationPosition(last)).toEqual({
      txID: last.data.txID,
      postApplyChecksum: last.data.postApplyChecksum,
    });
    expect(databaseSizeBytes(last)).toBe(last.data.commit * last.data.pageSize);
    expect(malformed).toEqual([]);
  });

  it("a replica reaches the primary's position (waitForPosition)", async () => {
    const nodes: { name: string; eventsUrl: string; isPrimary: boolean }[] = await h.control.db.nodes();
    const replica = nodes.find((n) => !n.isPrimary);
    if (!replica) throw new Error("no replica");
    const primaryEvents = take(h.emu.eventsUrl, (s) => s.filter(isTx).length === 5);
    await new Promise((r) => setTimeout(r, 100));
    const written = await h.control.db.tx({ db: "wait.db", count: 5 });
    const target = replicationPosition((await primaryEvents).seen.filter(isTx)[4] as TxEvent);
    expect(written.txID ?? target.txID).toBe(target.txID);
    // The replica applies with lag; ask for a position one write ahead, then write it.
    const waiting = waitForPosition(
      replica.eventsUrl,
      "wait.db",
      (BigInt(`0x${target.txID}`) + 1n).toString(16).padStart(16, "0"),
      {
        timeoutMs: 5_000,
      },
    );
    await new Promise((r) => setTimeout(r, 100));
    await h.control.db.tx({ db: "wait.db" });
    const reached = await waiting;
    expect(BigInt(`0x${reached.data.txID}`)).toBe(BigInt(`0x${target.txID}`) + 1n);
    await expect(
      waitForPosition(replica.eventsUrl, "wait.db", "00000000ffffffff", { timeoutMs: 300 }),
    ).rejects.toThrow(/did not reach txID 00000000ffffffff/);
  });

  it("PrimaryTracker follows a failover", async () => {
    const nodes: { name: string; eventsUrl: string; isPrimary: boolean }[] = await h.control.db.nodes();
    const replica = nodes.find((n) => !n.isPrimary);
    const primary = nodes.find((n) => n.isPrimary);
    if (!replica || !primary) throw new Error("no nodes");
    const tracker = new PrimaryTracker();
    const reading = take(replica.eventsUrl, (s) => {
      for (const ev of s.slice(-1)) tracker.feed(ev);
      return tracker.isPrimary === true;
    });
    await new Promise((r) => setTimeout(r, 150));
    expect(tracker.isPrimary).toBe(false);
    expect(tracker.primaryHostname).toBeTruthy();
    await h.control.db.failover(replica.name);
    await reading;
    expect(tracker.isPrimary).toBe(true);
    await h.control.db.failover(primary.name);
  });

  it("reconnects after the connection breaks, starting again with init", async () => {
    // A TCP proxy the test can cut, between the client and the node.
    const target = new URL(h.emu.eventsUrl);
    const sockets = new Set<Socket>();
    const proxy = createServer((client) => {
      const upstream = connect(Number(target.port), target.hostname);
      sockets.add(client);
      client.pipe(upstream).pipe(client);
      const end = () => {
        client.destroy();
        upstream.destroy();
      };
      client.on("error", end).on("close", end);
      upstream.on("error", end).on("close", end);
    });
    await new Promise<void>((r) => proxy.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/events`;
    let cut = false;
    const { seen } = await take(
      url,
      (s) => {
        if (!cut && s.length === 1) {
          cut = true;
          setTimeout(() => {
            for (const so of sockets) so.destroy();
          }, 50);
        }
        return s.filter((e) => e.type === "init").length === 2;
      },
      true,
    );
    proxy.close();
    expect(seen.map((e) => e.type)).toEqual(["init", "init"]);
  });
});

describe("ReplicationTracker against the emulator", () => {
  type Node = { name: string; eventsUrl: string; isPrimary: boolean };
  async function trackers() {
    const nodes: Node[] = await h.control.db.nodes();
    const primary = nodes.find((n) => n.isPrimary);
    const replica = nodes.find((n) => !n.isPrimary);
    if (!primary || !replica) throw new Error("no nodes");
    const p = new ReplicationTracker(primary.eventsUrl);
    const r = new ReplicationTracker(replica.eventsUrl);
    await Promise.all([p.ready(), r.ready()]);
    return { primary, replica, p, r, close: () => [p.close(), r.close()] };
  }

  it("a replica that already caught up resolves at once (the case that used to hang)", async () => {
    const { replica, p, r, close } = await trackers();
    try {
      const written = await h.control.db.tx({ db: "caught.db", count: 3 });
      const pos = await p.waitFor("caught.db", written.txID, { timeoutMs: 5_000 });
      expect(pos).toEqual({ txID: written.txID, postApplyChecksum: written.postApplyChecksum });
      // Let the replica apply everything, then ask: nothing more is written, so only the position
      // the tracker already holds can answer.
      await r.waitFor("caught.db", pos, { timeoutMs: 5_000 });
      const started = Date.now();
      await expect(r.waitFor("caught.db", pos, { timeoutMs: 1_000 })).resolves.toEqual(pos);
      expect(Date.now() - started).toBeLessThan(100);
      expect(r.position("caught.db")).toEqual(pos);
      // A one-shot wait started now sees no further tx, which is why a tracker must start first.
      await expect(waitForPosition(replica.eventsUrl, "caught.db", pos, { timeoutMs: 300 })).rejects.toThrow(
        /did not reach/,
      );
    } finally {
      close();
    }
  });

  it("keeps working through a failover: status follows, positions flow the other way", async () => {
    const { primary, replica, p, r, close } = await trackers();
    try {
      expect([p.isPrimary, r.isPrimary]).toEqual([true, false]);
      expect(r.primaryHostname).toBeTruthy();
      await h.control.db.failover(replica.name);
      const deadline = Date.now() + 5_000;
      while ((r.isPrimary !== true || p.isPrimary !== false) && Date.now() < deadline)
        await new Promise((res) => setTimeout(res, 10));
      expect([p.isPrimary, r.isPrimary]).toEqual([false, true]);

      const next = r.nextTx("failover.db", { timeoutMs: 5_000 });
      const written = await h.control.db.tx({ db: "failover.db" });
      expect(written.node).toBe(replica.name);
      const pos = replicationPosition(await next);
      expect(pos.txID).toBe(written.txID);
      await expect(p.waitFor("failover.db", pos, { timeoutMs: 5_000 })).resolves.toEqual(pos);
    } finally {
      await h.control.db.failover(primary.name);
      close();
    }
  });
});

describe("events as a real node writes them (sparse emulator)", () => {
  it("a tracker follows a failover whose new primary leaves its hostname out, on flagged checksums", async () => {
    const sparse = await startTestEmulator({ responses: "sparse", timing: { replicationLagMs: 10 } });
    const control = sparse.control;
    const malformed: string[] = [];
    const onMalformedLine = (line: string) => malformed.push(line);
    const nodes = await control.db.nodes();
    const [a, b] = nodes as [(typeof nodes)[0], (typeof nodes)[0]];
    const ta = new ReplicationTracker(a.eventsUrl, { onMalformedLine });
    const tb = new ReplicationTracker(b.eventsUrl, { onMalformedLine });
    try {
      await Promise.all([ta.ready(), tb.ready()]);
      expect([ta.isPrimary, ta.primaryHostname, tb.isPrimary]).toEqual([true, undefined, false]);
      const written = await control.db.tx({ db: "real.db", count: 2 });
      expect(written.postApplyChecksum).toMatch(/^[89a-f][0-9a-f]{15}$/);
      await tb.waitFor("real.db", written, { timeoutMs: 5_000 });
      await control.db.failover(b.name);
      const deadline = Date.now() + 5_000;
      while ((tb.isPrimary !== true || ta.isPrimary !== false) && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 10));
      expect([tb.isPrimary, tb.primaryHostname]).toEqual([true, undefined]);
      expect(ta.isPrimary).toBe(false);
      expect(ta.primaryHostname).toBe(new URL(b.eventsUrl).host);
      expect(malformed).toEqual([]);
    } finally {
      ta.close();
      tb.close();
      await sparse.close();
    }
  });
});
