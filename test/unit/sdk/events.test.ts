import { Readable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import {
  compareTxId,
  databaseSizeBytes,
  PrimaryTracker,
  parseEventLine,
  parseEvents,
  replicationPosition,
  subscribeEvents,
} from "../../../sdk/events";
import type { PlatformEvent, TxEvent } from "../../../sdk/index";
import { startServer } from "./helpers";

const tx = (txID = "0000000000000001", extra: Record<string, unknown> = {}) => ({
  type: "tx",
  db: "app.db",
  data: {
    txID,
    postApplyChecksum: "83b05248774ce767",
    pageSize: 4096,
    commit: 3,
    timestamp: "2025-01-01T00:00:00Z",
    ...extra,
  },
});
const init = { type: "init", data: { isPrimary: false, hostname: "primary:20202" } };

describe("parseEventLine", () => {
  it.each([
    ["a valid tx event", JSON.stringify(tx())],
    ["an init event", JSON.stringify(init)],
    [
      "an init event with fields added later",
      JSON.stringify({ type: "init", data: { isPrimary: true, region: "ams" } }),
    ],
    [
      "a primaryChange event",
      JSON.stringify({ type: "primaryChange", data: { isPrimary: false, hostname: "h:1" } }),
    ],
    ["an unknown type is kept as is", JSON.stringify({ type: "checkpoint", data: { n: 1 } })],
    ["an unknown type without data", JSON.stringify({ type: "heartbeat" })],
  ])("accepts %s", (_rule, line) => {
    expect(parseEventLine(line)).toEqual(JSON.parse(line));
  });

  it("keeps unknown fields of known events", () => {
    const ev = parseEventLine(JSON.stringify({ ...tx(), extra: 1, data: { ...tx().data, more: true } }));
    expect(ev).toMatchObject({ extra: 1, data: { more: true } });
  });

  it.each([
    ["not JSON", "{nope", /JSON/],
    ["a JSON array", "[1]", /not a JSON object/],
    ["a JSON string", '"tx"', /not a JSON object/],
    ["no type", '{"data":{}}', /field type/],
    ["tx with a short txID", JSON.stringify(tx("abc")), /field data\.txID/],
    ["tx without db", JSON.stringify({ ...tx(), db: undefined }), /field db/],
    [
      "tx with a fractional pageSize",
      JSON.stringify(tx(undefined, { pageSize: 1.5 })),
      /field data\.pageSize/,
    ],
    [
      "tx with a non-hex checksum",
      JSON.stringify(tx(undefined, { postApplyChecksum: "xyz" })),
      /field data\.postApplyChecksum/,
    ],
    ["init without isPrimary", '{"type":"init","data":{}}', /field data\.isPrimary/],
  ])("rejects %s, naming the problem", (_rule, line, message) => {
    expect(() => parseEventLine(line)).toThrow(message);
  });
});

/**
 * Lines as a real replicated-database node writes them (its Go encoder): `hostname` is
 * `omitempty`, so a primary's init and its own primaryChange carry none; checksums are 16 hex
 * digits with the LTX checksum flag (top bit) set; timestamps have nanoseconds.
 */
const REAL_NODE_LINES = [
  '{"type":"init","data":{"isPrimary":true}}',
  '{"type":"tx","db":"app.db","data":{"txID":"0000000000000001","postApplyChecksum":"8a3f00c2e1d4b5a6","pageSize":4096,"commit":2,"timestamp":"2025-01-01T00:00:00.123456789Z"}}',
  '{"type":"tx","db":"app.db","data":{"txID":"0000000000000002","postApplyChecksum":"ffffffffffffffff","pageSize":4096,"commit":2,"timestamp":"2025-01-01T00:00:01Z"}}',
  '{"type":"primaryChange","data":{"isPrimary":false,"hostname":"node-b.internal:20202"}}',
  '{"type":"primaryChange","data":{"isPrimary":true}}',
  '{"type":"primaryChange","data":{"isPrimary":true,"hostname":""}}',
  '{"type":"init","data":{"isPrimary":true,"hostname":""}}',
];

describe("events as a real node writes them", () => {
  it.each(REAL_NODE_LINES)("accepts %s unchanged", (line) => {
    expect(parseEventLine(line)).toEqual(JSON.parse(line));
  });

  it("a stream of them parses without a malformed line", async () => {
    const bad: string[] = [];
    const events = await collect([`${REAL_NODE_LINES.join("\n")}\n`], (l) => bad.push(l));
    expect(bad).toEqual([]);
    expect(events.map((e) => e.type)).toEqual([
      "init",
      "tx",
      "tx",
      "primaryChange",
      "primaryChange",
      "primaryChange",
      "init",
    ]);
  });

  it("a checksum with the top bit set is kept as written, digit for digit", () => {
    const event = parseEventLine(REAL_NODE_LINES[1] as string) as TxEvent;
    expect(replicationPosition(event)).toEqual({
      txID: "0000000000000001",
      postApplyChecksum: "8a3f00c2e1d4b5a6",
    });
  });

  it("PrimaryTracker: a node that becomes primary with no hostname is primary, and names itself when told who it is", () => {
    const events = REAL_NODE_LINES.map(parseEventLine);
    const anonymous = new PrimaryTracker();
    const named = new PrimaryTracker({ selfHostname: "node-a.internal:20202" });
    const seen: string[] = [];
    for (const e of events) {
      anonymous.feed(e);
      named.feed(e);
      seen.push(`${anonymous.isPrimary}@${anonymous.primaryHostname}|${named.primaryHostname}`);
    }
    expect(seen).toEqual([
      "true@undefined|node-a.internal:20202",
      "true@undefined|node-a.internal:20202",
      "true@undefined|node-a.internal:20202",
      "false@node-b.internal:20202|node-b.internal:20202",
      "true@undefined|node-a.internal:20202",
      "true@undefined|node-a.internal:20202",
      "true@undefined|node-a.internal:20202",
    ]);
  });
});

async function collect(chunks: (string | Buffer)[], onMalformedLine?: (l: string, e: Error) => void) {
  const out: PlatformEvent[] = [];
  for await (const ev of parseEvents(Readable.from(chunks.map((c) => Buffer.from(c))), { onMalformedLine }))
    out.push(ev);
  return out;
}

describe("parseEvents", () => {
  it("a malformed line is reported and the stream goes on", async () => {
    const bad: string[] = [];
    const events = await collect([`${JSON.stringify(init)}\n{oops\n${JSON.stringify(tx())}\n`], (l) =>
      bad.push(l),
    );
    expect(events.map((e) => e.type)).toEqual(["init", "tx"]);
    expect(bad).toEqual(["{oops"]);
  });

  it("events split at every byte boundary come out whole", async () => {
    const text = `${JSON.stringify(init)}\n${JSON.stringify({ ...tx(), note: "é😀" })}\n`;
    const bytes = Buffer.from(text);
    for (let i = 1; i < bytes.length; i += 7) {
      const out: PlatformEvent[] = [];
      for await (const ev of parseEvents(Readable.from([bytes.subarray(0, i), bytes.subarray(i)])))
        out.push(ev);
      expect(out).toEqual([init, { ...tx(), note: "é😀" }]);
    }
  });

  it("a first event other than init is reported but still yielded", async () => {
    const bad: Error[] = [];
    const events = await collect([`${JSON.stringify(tx())}\n`], (_l, e) => bad.push(e));
    expect(events).toHaveLength(1);
    expect(bad[0]?.message).toMatch(/expected init/);
  });
});

describe("replication helpers", () => {
  it("the position is txID plus postApplyChecksum", () => {
    expect(replicationPosition(tx() as TxEvent)).toEqual({
      txID: "0000000000000001",
      postApplyChecksum: "83b05248774ce767",
    });
  });
  it("database size is commit × pageSize", () => {
    expect(databaseSizeBytes(tx() as TxEvent)).toBe(3 * 4096);
  });
  it.each([
    ["0000000000000001", "0000000000000002", -1],
    ["000000000000000a", "0000000000000009", 1],
    ["000000000000000A", "000000000000000a", 0],
    ["8000000000000000", "7fffffffffffffff", 1],
    ["ffffffffffffffff", "fffffffffffffffe", 1],
    ["ff", "8000000000000000", -1],
    ["ff", "0000000000000100", -1],
    ["00000000000000ff", "ff", 0],
  ])("compareTxId(%s, %s) = %i", (a, b, expected) => {
    expect(Math.sign(compareTxId(a, b))).toBe(expected);
  });
});

describe("PrimaryTracker", () => {
  it("follows init and primaryChange", () => {
    const changes: string[] = [];
    const t = new PrimaryTracker({
      selfHostname: "me:1",
      onChange: (x) => changes.push(`${x.isPrimary}@${x.primaryHostname}`),
    });
    expect(t.isPrimary).toBeUndefined();
    expect(t.feed(init as PlatformEvent)).toBe(true);
    expect(t.feed(tx() as PlatformEvent)).toBe(false);
    t.feed({ type: "primaryChange", data: { isPrimary: true, hostname: "" } } as PlatformEvent);
    t.feed({ type: "primaryChange", data: { isPrimary: false, hostname: "" } } as PlatformEvent);
    expect(changes).toEqual(["false@primary:20202", "true@me:1", "false@undefined"]);
  });
});

describe("subscribeEvents over HTTP", () => {
  let closeFns: (() => Promise<void>)[] = [];
  afterEach(async () => {
    await Promise.all(closeFns.map((c) => c()));
    closeFns = [];
  });

  it("reconnects after the node ends the stream, and each connection starts with init", async () => {
    let connections = 0;
    const srv = await startServer((_req, res) => {
      connections++;
      res.writeHead(200, { "content-type": "application/x-ndjson" });
      res.write(
        `${JSON.stringify(init)}\n${JSON.stringify(tx(`000000000000000${connections}`)).slice(0, 20)}`,
      );
      setTimeout(() => res.end(`${JSON.stringify(tx(`000000000000000${connections}`)).slice(20)}\n`), 20);
    });
    closeFns.push(srv.close);
    const ac = new AbortController();
    const seen: string[] = [];
    for await (const ev of subscribeEvents(`${srv.url}/events`, {
      signal: ac.signal,
      reconnect: { initialDelayMs: 10, maxDelayMs: 20 },
    })) {
      seen.push(ev.type === "tx" ? (ev as TxEvent).data.txID.slice(-1) : ev.type);
      if (seen.length === 6) ac.abort();
    }
    expect(seen).toEqual(["init", "1", "init", "2", "init", "3"]);
  });

  it("without reconnect, a non-200 answer throws an ApiError", async () => {
    const srv = await startServer((_req, res) => {
      res.writeHead(500);
      res.end("down");
    });
    closeFns.push(srv.close);
    const it = subscribeEvents(`${srv.url}/events`)[Symbol.asyncIterator]();
    await expect(it.next()).rejects.toMatchObject({ code: "API_ERROR", status: 500 });
  });
});
