import { describe, expect, it } from "vitest";
import { NdjsonSplitter } from "../../../sdk/ndjson";

function splitAll(chunks: (string | Buffer)[]): string[] {
  const s = new NdjsonSplitter();
  const out: string[] = [];
  for (const c of chunks) out.push(...s.push(typeof c === "string" ? Buffer.from(c) : c));
  const last = s.end();
  if (last !== undefined) out.push(last);
  return out;
}

describe("NDJSON splitting", () => {
  it.each([
    ["one chunk, several lines", ['{"a":1}\n{"b":2}\n'], ['{"a":1}', '{"b":2}']],
    ["a line split across two chunks", ['{"a":', "1}\n"], ['{"a":1}']],
    ["a line split across many chunks", ["{", '"a"', ":", "1", "}", "\n"], ['{"a":1}']],
    ["a newline alone in a chunk", ['{"a":1}', "\n", '{"b":2}', "\n"], ['{"a":1}', '{"b":2}']],
    ["CRLF line ends", ['{"a":1}\r\n{"b":2}\r\n'], ['{"a":1}', '{"b":2}']],
    ["CR and LF split across chunks", ['{"a":1}\r', '\n{"b":2}\n'], ['{"a":1}', '{"b":2}']],
    ["empty lines are dropped", ["\n\n{}\n\n"], ["{}"]],
    ["a last line without a newline is kept", ['{"a":1}\n{"b":2}'], ['{"a":1}', '{"b":2}']],
    ["no input, no lines", [], []],
  ])("%s", (_rule, chunks, expected) => {
    expect(splitAll(chunks)).toEqual(expected);
  });

  it("a multi-byte UTF-8 character split at every possible byte boundary decodes intact", () => {
    const text = '{"name":"日本語 ✓ 😀 ü"}\n';
    const bytes = Buffer.from(text);
    for (let i = 1; i < bytes.length; i++) {
      for (let j = i; j < bytes.length; j++) {
        const lines = splitAll([bytes.subarray(0, i), bytes.subarray(i, j), bytes.subarray(j)]);
        expect(lines).toEqual([text.trimEnd()]);
      }
    }
  });

  it("a chunk reused by the producer after push does not corrupt the pending line", () => {
    const s = new NdjsonSplitter();
    const buf = Buffer.from('{"a":');
    expect(s.push(buf)).toEqual([]);
    buf.fill(0x20);
    expect(s.push(Buffer.from("1}\n"))).toEqual(['{"a":1}']);
  });

  it("accepts plain Uint8Array chunks", () => {
    const s = new NdjsonSplitter();
    expect(s.push(new TextEncoder().encode("{}\n"))).toEqual(["{}"]);
  });
});
