/**
 * The platform's clock as its answers tell it: every response's `Date` header (RFC 9110: whole
 * seconds, the time the answer was made) against the local clock when the answer arrived. A look
 * after a lost answer compares the platform's `created_at` with when the attempt was sent (the
 * local clock), and this narrows how far the two may disagree (`earliestMadeAt`).
 * @module
 */

/** One per Transport: what the platform's latest `Date` header said of the two clocks. */
export class PlatformClock {
  private lastHeader: string | undefined;
  private lastDate = Number.NaN;
  private skew: number | undefined;

  /**
   * Reads a response's `Date` header (`receivedAt`: local ms when the answer arrived). A header
   * that does not parse is ignored. Only the latest answer counts: a local clock set meanwhile
   * (NTP) makes an older measure wrong.
   */
  observe(header: string | string[] | undefined, receivedAt: number): void {
    const value = Array.isArray(header) ? header[0] : header;
    if (value === undefined) return;
    // The header changes once a second: parse it only then.
    if (value !== this.lastHeader) {
      this.lastHeader = value;
      this.lastDate = Date.parse(value);
    }
    if (Number.isNaN(this.lastDate)) return;
    // The answer was made before it arrived, at `Date` or up to a second after (whole seconds):
    // the platform's clock is ahead of the local one by at least `Date - receivedAt`.
    this.skew = this.lastDate - receivedAt;
  }

  /**
   * How far the platform's clock is ahead of this machine's at least (ms, negative when behind),
   * or undefined when no answer carried a `Date` header.
   */
  get skewMs(): number | undefined {
    return this.skew;
  }
}
