import { connect } from "node:net";
import { request } from "undici";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import type { TxBody } from "../../../emulator/control-schemas";
import { startTestEmulator, type TestEmulator } from "../../support/emulator";

let t: TestEmulator;
let nodes: { name: string; eventsUrl: string; hostname: string }[];
const LAG = 50;

interface Stream {
  // biome-ignore lint/suspicious/noExplicitAny: JSON bodies of many shapes, checked by the assertions
  next(): Promise<any>;
  close(): void;
}

/** Reads an NDJSON stream line by line. */
async function openStream(url: string): Promise<Stream> {
  const res = await request(url);
  expect(res.statusCode).toBe(200);
  expect(res.headers["content-type"]).toContain("application/x-ndjson");
  // biome-ignore lint/suspicious/noExplicitAny: JSON bodies of many shapes, checked by the assertions
  const events: any[] = [];
  // biome-ignore lint/suspicious/noExplicitAny: JSON bodies of many shapes, checked by the assertions
  const waiters: ((e: any) => void)[] = [];
  let buffer = "";
  res.body.setEncoding("utf8");
  res.body.on("data", (chunk: string) => {
    buffer += chunk;
    let nl = buffer.indexOf("\n");
    while (nl >= 0) {
      const event = JSON.parse(buffer.slice(0, nl));
      buffer = buffer.slice(nl + 1);
      const w = waiters.shift();
      if (w) w(event);
      else events.push(event);
      nl = buffer.indexOf("\n");
    }
  });
  res.body.on("error", () => {});
  return {
    next: () =>
      events.length > 0
        ? Promise.resolve(events.shift())
        : new Promise((resolve, reject) => {
            const timer = setTimeout(() => reject(new Error("no event within 2s")), 2000);
            waiters.push((e) => {
              clearTimeout(timer);
              resolve(e);
            });
          }),
    close: () => res.body.destroy(),
  };
}

const node = (name: string) => nodes.find((n) => n.name === name)!;
const write = (body: TxBody) => t.control.db.tx(body);
const describeNodes = () => t.control.db.nodes();
/** The second node (the first replica). */
const secondNode = async () => (await describeNodes())[1] ?? expect.unreachable("no second node");

beforeAll(async () => {
  t = await startTestEmulator({ timing: { replicationLagMs: LAG } });
  await t.control.time.speed(0);
  nodes = await describeNodes();
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.control.reset();
});

describe("event stream", () => {
  test("the start eventsUrl is the primary's stream; the nodes list names a primary and a replica", async () => {
    expect(nodes.map((n) => n.name)).toEqual(["node-a", "node-b"]);
    expect(node("node-a").eventsUrl).toBe(t.emu.eventsUrl);
    const all = await describeNodes();
    expect(all.map((n: { isPrimary: boolean }) => n.isPrimary)).toEqual([true, false]);
  });

  test("init comes first: isPrimary true on the primary, with an empty hostname", async () => {
    const s = await openStream(t.emu.eventsUrl);
    expect(await s.next()).toEqual({ type: "init", data: { isPrimary: true, hostname: "" } });
    s.close();
  });

  test("init on a replica has isPrimary false and the primary's host:port", async () => {
    const s = await openStream(node("node-b").eventsUrl);
    expect(await s.next()).toEqual({
      type: "init",
      data: { isPrimary: false, hostname: node("node-a").hostname },
    });
    expect(node("node-a").hostname).toMatch(/^127\.0\.0\.1:\d+$/);
    s.close();
  });

  test("each transaction is a tx event: db, 16-hex increasing txID, changing checksum, pageSize, commit, timestamp", async () => {
    const s = await openStream(t.emu.eventsUrl);
    await s.next();
    const pos = await write({ db: "app.db", count: 3, pages: 2, pageSize: 8192 });
    expect(pos).toMatchObject({ db: "app.db", txID: "0000000000000003", commit: 6, pageSize: 8192 });
    const txs = [await s.next(), await s.next(), await s.next()];
    for (const [i, tx] of txs.entries()) {
      expect(tx.type).toBe("tx");
      expect(tx.db).toBe("app.db");
      expect(tx.data.txID).toMatch(/^[0-9a-f]{16}$/);
      expect(Number.parseInt(tx.data.txID, 16)).toBe(i + 1);
      // The LTX checksum flag: the top bit is always set, so the first hex digit is 8 to f.
      expect(tx.data.postApplyChecksum).toMatch(/^[89a-f][0-9a-f]{15}$/);
      expect(tx.data).toMatchObject({ pageSize: 8192, commit: 2 * (i + 1) });
      expect(Date.parse(tx.data.timestamp)).not.toBeNaN();
    }
    expect(new Set(txs.map((x) => x.data.postApplyChecksum)).size).toBe(3);
    expect(txs[2].data.postApplyChecksum).toBe(pos.postApplyChecksum);
    s.close();
  });

  test("a replica receives each tx only after the replication lag", async () => {
    const replica = await openStream(node("node-b").eventsUrl);
    await replica.next();
    const pos = await write({ db: "app.db" });
    let replicaNode = await secondNode();
    expect(replicaNode.position).toBeNull();
    await t.advance(LAG - 1);
    expect((await secondNode()).position).toBeNull();
    await t.advance(1);
    const tx = await replica.next();
    expect(tx.data).toMatchObject({ txID: pos.txID, postApplyChecksum: pos.postApplyChecksum });
    replicaNode = await secondNode();
    expect(replicaNode.position).toEqual({
      db: "app.db",
      txID: pos.txID,
      postApplyChecksum: pos.postApplyChecksum,
    });
    replica.close();
  });

  test("failover emits primaryChange on both nodes and writes continue on the new primary", async () => {
    await write({ db: "app.db", count: 2 });
    const a = await openStream(node("node-a").eventsUrl);
    const b = await openStream(node("node-b").eventsUrl);
    await a.next();
    await b.next();
    expect(await t.control.db.failover("node-b")).toEqual({ primary: "node-b" });
    // The promoted node first applies what was still in flight.
    expect((await b.next()).type).toBe("tx");
    expect((await b.next()).type).toBe("tx");
    // The node that became primary names no primary: its own hostname is empty, as a real node's.
    expect(await b.next()).toEqual({ type: "primaryChange", data: { isPrimary: true, hostname: "" } });
    expect(await a.next()).toEqual({
      type: "primaryChange",
      data: { isPrimary: false, hostname: node("node-b").hostname },
    });
    const pos = await write({ db: "app.db" });
    expect(pos).toMatchObject({ node: "node-b", txID: "0000000000000003" });
    expect((await b.next()).data.txID).toBe("0000000000000003");
    await t.advance(LAG);
    expect((await a.next()).data.txID).toBe("0000000000000003");
    const fresh = await openStream(node("node-a").eventsUrl);
    expect(await fresh.next()).toEqual({
      type: "init",
      data: { isPrimary: false, hostname: node("node-b").hostname },
    });
    for (const s of [a, b, fresh]) s.close();
  });

  test("a replica losing and regaining the primary emits primaryChange and catches up", async () => {
    const b = await openStream(node("node-b").eventsUrl);
    await b.next();
    await t.control.db.disconnect("node-b");
    expect(await b.next()).toEqual({ type: "primaryChange", data: { isPrimary: false, hostname: "" } });
    await write({ db: "app.db", count: 2 });
    await t.advance(LAG * 10);
    expect((await secondNode()).position).toBeNull();
    await t.control.db.connect("node-b");
    expect(await b.next()).toEqual({
      type: "primaryChange",
      data: { isPrimary: false, hostname: node("node-a").hostname },
    });
    await t.advance(LAG);
    expect((await b.next()).data.txID).toBe("0000000000000001");
    expect((await b.next()).data.txID).toBe("0000000000000002");
    b.close();
  });

  test("the primary cannot be disconnected and unknown nodes are 404", async () => {
    expect((await t.api("POST", "/__emulator/db/nodes/node-a/disconnect")).status).toBe(409);
    expect((await t.api("POST", "/__emulator/db/nodes/node-z/connect")).status).toBe(404);
    expect((await t.api("POST", "/__emulator/db/failover", { primary: "node-z" })).status).toBe(404);
  });

  test("paths other than GET /events are 404", async () => {
    const res = await request(t.emu.eventsUrl.replace("/events", "/other"));
    expect(res.statusCode).toBe(404);
    await res.body.dump();
  });
});

describe("slow consumers", () => {
  test("a consumer that does not read is disconnected once its buffer passes the bound", async () => {
    const small = await startTestEmulator({ eventsBufferBytes: 16 * 1024 });
    try {
      const url = new URL(small.emu.eventsUrl);
      const socket = connect(Number(url.port), url.hostname);
      await new Promise((resolve) => socket.once("connect", resolve));
      socket.write(`GET /events HTTP/1.1\r\nHost: ${url.host}\r\n\r\n`);
      socket.pause();
      const closed = new Promise((resolve) => socket.once("close", resolve));
      socket.on("error", () => {});
      const subscribers = async () => (await small.control.db.nodes())[0] ?? expect.unreachable("no node");
      await expect.poll(async () => (await subscribers()).subscribers).toBe(1);
      for (let i = 0; i < 20 && (await subscribers()).subscribers > 0; i++) {
        await small.control.db.tx({ db: "big.db", count: 20_000 });
      }
      const after = await subscribers();
      expect(after.subscribers).toBe(0);
      expect(after.droppedSubscribers).toBe(1);
      socket.resume();
      await closed;
    } finally {
      await small.close();
    }
  });
});
