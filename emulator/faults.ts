import { z } from "zod";

export const FaultSpecSchema = z
  .object({
    method: z.string().min(1).optional(),
    path: z.string().min(1).optional(),
    kind: z.enum(["latency", "latency-after", "status", "status-after", "drop-before", "drop-after"]),
    status: z
      .union([z.literal(429), z.literal(500), z.literal(502), z.literal(503), z.literal(504)])
      .optional(),
    retryAfterSeconds: z.number().int().nonnegative().optional(),
    latencyMs: z.number().nonnegative().optional(),
    times: z.number().int().nonnegative().optional(),
    probability: z.number().min(0).max(1).optional(),
  })
  .refine((f) => !f.kind.startsWith("latency") || f.latencyMs !== undefined, {
    message: "latencyMs is required for a latency fault",
    path: ["latencyMs"],
  })
  // A 500 before the handler runs says nothing a 503 does not; after it, it is the platform's
  // "rotated, then failed to end the sessions" (the handler's changes stay).
  .refine((f) => f.status !== 500 || f.kind === "status-after", {
    message: "status 500 is only allowed for a status-after fault",
    path: ["status"],
  });
export type FaultSpec = z.infer<typeof FaultSpecSchema>;

export interface Fault extends FaultSpec {
  id: string;
  /** Applications left; null means until cleared (`times: 0`). */
  remaining: number | null;
  hits: number;
}

/** A deterministic PRNG (mulberry32), so probabilistic faults replay the same way per seed. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Fault path globs: `*` is one path segment, `**` anything; a pattern also matches the paths below it. */
export function globToRegExp(glob: string): RegExp {
  const body = glob
    .replace(/\/+$/, "")
    .split(/(\*\*|\*)/)
    .map((part) =>
      part === "**" ? ".*" : part === "*" ? "[^/]*" : part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"),
    )
    .join("");
  return new RegExp(`^${body}(?:/.*)?$`);
}

/** Kinds that delay an answer; every other kind is terminal (it decides the answer). */
const LATENCY_KINDS: ReadonlySet<FaultSpec["kind"]> = new Set(["latency", "latency-after"]);

interface CompiledFault {
  fault: Fault;
  path: RegExp | undefined;
}

/** Registered faults of the remote API; never applied to `/__emulator/*` (the caller makes sure). */
export class FaultInjector {
  private faults: CompiledFault[] = [];
  private nextId = 1;
  private random: () => number;

  constructor(private readonly seed = 1) {
    this.random = mulberry32(seed);
  }

  get active(): boolean {
    return this.faults.length > 0;
  }

  add(spec: FaultSpec): Fault {
    const fault: Fault = {
      ...spec,
      id: `fault_${this.nextId++}`,
      remaining: spec.times === 0 ? null : (spec.times ?? 1),
      hits: 0,
    };
    this.faults.push({ fault, path: spec.path ? globToRegExp(spec.path) : undefined });
    return fault;
  }

  list(): Fault[] {
    return this.faults.map((f) => f.fault);
  }

  /** Clears the faults and restarts the random sequence, so a test run replays identically. */
  clear(): void {
    this.faults = [];
    this.random = mulberry32(this.seed);
  }

  /**
   * Faults that fire for this request, in the order they were added: every latency that fires
   * (before or after the handler, wherever it stands in the queue), then at most one terminal
   * fault (status or drop), the first that fires. Each fired fault uses one application. A fault
   * not applied to this request keeps its `times`: a terminal fault behind the one that fired,
   * and a `latency-after` when the connection is dropped before the handler (there is no answer
   * to hold).
   */
  take(method: string, path: string): Fault[] {
    const latencies: Fault[] = [];
    let terminal: Fault | undefined;
    for (const { fault, path: re } of this.faults) {
      if (fault.method && fault.method.toUpperCase() !== method) continue;
      if (re && !re.test(path)) continue;
      const isTerminal = !LATENCY_KINDS.has(fault.kind);
      if (isTerminal && terminal) continue;
      if (fault.probability !== undefined && this.random() >= fault.probability) continue;
      if (isTerminal) terminal = fault;
      else latencies.push(fault);
    }
    const answered = terminal?.kind !== "drop-before";
    const fired = latencies.filter((f) => answered || f.kind === "latency");
    if (terminal) fired.push(terminal);
    for (const fault of fired) {
      fault.hits++;
      if (fault.remaining !== null) fault.remaining--;
    }
    if (fired.length > 0) this.faults = this.faults.filter((f) => f.fault.remaining !== 0);
    return fired;
  }
}
