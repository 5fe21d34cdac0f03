interface Timer {
  at: number;
  fn: () => void;
}

/**
 * Virtual time shared by every delay in the emulator (restores, snapshot appearance, task expiry,
 * pause stages, retention, replication lag). It runs at `factor` x wall-clock speed (0 freezes
 * it) and can be pushed forward with `advance`, which fires every timer that falls due, in order.
 */
export class VirtualClock {
  private baseReal = Date.now();
  private baseVirtual: number;
  private factor = 1;
  private timers: Timer[] = [];
  private realTimer: NodeJS.Timeout | undefined;
  private disposed = false;

  constructor(startAt: number = Date.now()) {
    this.baseVirtual = startAt;
  }

  now(): number {
    return this.baseVirtual + (Date.now() - this.baseReal) * this.factor;
  }

  iso(at: number = this.now()): string {
    return new Date(Math.floor(at)).toISOString();
  }

  get speed(): number {
    return this.factor;
  }

  /** Moves virtual time forward, firing due timers. */
  advance(ms: number): number {
    if (!(ms >= 0)) throw new RangeError("ms must be a non-negative number");
    this.baseVirtual += ms;
    this.fireDue();
    return this.now();
  }

  /** Jumps forward to `at` when it is in the future (used when loading persisted state). */
  advanceTo(at: number): void {
    const now = this.now();
    if (at > now) this.advance(at - now);
  }

  setSpeed(factor: number): void {
    if (!(factor >= 0) || !Number.isFinite(factor)) throw new RangeError("factor must be a number >= 0");
    this.baseVirtual = this.now();
    this.baseReal = Date.now();
    this.factor = factor;
    this.reschedule();
  }

  /** Runs `fn` once `delayMs` of virtual time has passed. Returns a cancel function. */
  schedule(delayMs: number, fn: () => void): () => void {
    const timer: Timer = { at: this.now() + Math.max(0, delayMs), fn };
    // Binary insert after every timer due at or before it: equal times keep scheduling order.
    let lo = 0;
    let hi = this.timers.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.timers[mid] as Timer).at <= timer.at) lo = mid + 1;
      else hi = mid;
    }
    this.timers.splice(lo, 0, timer);
    if (lo === 0) this.reschedule();
    return () => {
      const i = this.timers.indexOf(timer);
      if (i >= 0) this.timers.splice(i, 1);
    };
  }

  dispose(): void {
    this.disposed = true;
    this.timers = [];
    if (this.realTimer) clearTimeout(this.realTimer);
  }

  private fireDue(): void {
    const now = this.now();
    while (this.timers.length > 0 && (this.timers[0] as Timer).at <= now) {
      const timer = this.timers.shift() as Timer;
      timer.fn();
    }
    this.reschedule();
  }

  private reschedule(): void {
    if (this.realTimer) clearTimeout(this.realTimer);
    this.realTimer = undefined;
    const next = this.timers[0];
    // A frozen clock (factor 0) only moves through advance().
    if (!next || this.disposed || this.factor === 0) return;
    const realDelay = Math.max(0, (next.at - this.now()) / this.factor);
    // Clamp: setTimeout overflows past ~24.8 days.
    this.realTimer = setTimeout(() => this.fireDue(), Math.min(realDelay, 2 ** 31 - 1));
    this.realTimer.unref();
  }
}
