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
   * Faults that fire for this request, consuming one application of each: every latency
   * that fires, then at most one terminal fault (status or drop).
   */
  take(method: string, path: string): Fault[] {
    const fired: Fault[] = [];
    for (const { fault, path: re } of this.faults) {
      if (fault.method && fault.method.toUpperCase() !== method) continue;
      if (re && !re.test(path)) continue;
      if (fault.probability !== undefined && this.random() >= fault.probability) continue;
      fault.hits++;
      if (fault.remaining !== null) fault.remaining--;
      fired.push(fault);
      if (fault.kind !== "latency") break;
    }
    if (fired.length > 0) this.faults = this.faults.filter((f) => f.fault.remaining !== 0);
    return fired;
  }
}
