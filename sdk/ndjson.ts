/**
 * Newline-delimited JSON framing: turns arbitrary byte chunks into complete lines. Lines are
 * split on the byte 0x0A, which never occurs inside a multi-byte UTF-8 sequence, so a character
 * split across chunks is decoded only once its line is complete.
 * @module
 */

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/** Incremental line splitter; feed chunks with {@link push}, collect the tail with {@link end}. */
export class NdjsonSplitter {
  // Bytes of an unfinished line carried over from earlier chunks.
  private pending: Buffer | undefined;

  /** Returns the lines completed by `chunk` (without `\n` or `\r\n`; empty lines dropped). */
  push(chunk: Uint8Array): string[] {
    const buf = Buffer.isBuffer(chunk)
      ? chunk
      : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const lines: string[] = [];
    let start = 0;
    let nl = buf.indexOf(NEWLINE);
    if (nl !== -1 && this.pending !== undefined) {
      const joined = Buffer.concat([this.pending, buf.subarray(0, nl)]);
      this.pending = undefined;
      addLine(lines, joined, 0, joined.length);
      start = nl + 1;
      nl = buf.indexOf(NEWLINE, start);
    }
    while (nl !== -1) {
      addLine(lines, buf, start, nl);
      start = nl + 1;
      nl = buf.indexOf(NEWLINE, start);
    }
    if (start < buf.length) {
      // Copy: the caller may reuse the chunk's memory.
      const rest = Buffer.from(buf.subarray(start));
      this.pending = this.pending === undefined ? rest : Buffer.concat([this.pending, rest]);
    }
    return lines;
  }

  /** The last line when the stream ended without a newline, else undefined. Resets the splitter. */
  end(): string | undefined {
    const rest = this.pending;
    this.pending = undefined;
    if (rest === undefined) return undefined;
    const lines: string[] = [];
    addLine(lines, rest, 0, rest.length);
    return lines[0];
  }
}

function addLine(lines: string[], buf: Buffer, start: number, end: number): void {
  if (end > start && buf[end - 1] === CARRIAGE_RETURN) end--;
  if (end > start) lines.push(buf.toString("utf8", start, end));
}
