import { readFileSync } from "node:fs";
import { z } from "zod";
import { isKnownRegion } from "../../sdk/schemas/regions";
import { DEFAULT_ORG, DEFAULT_REGION } from "../../sdk/simulation/defaults";
import { formatZodError } from "../validation";

const SeedUserSchema = z.union([
  z.string().min(1),
  z.object({ name: z.string().min(1), reserved: z.boolean().optional() }),
]);

const SeedAppSchema = z.union([
  z.string().min(1),
  z.object({
    name: z.string().min(1),
    primary_region: z
      .string()
      .refine(isKnownRegion, { error: (iss) => `unknown region ${JSON.stringify(iss.input)}` })
      .optional(),
    org: z.string().min(1).optional(),
  }),
]);

const SeedClusterSchema = z.object({
  name: z.string().min(1),
  state: z.enum(["ready", "deleting", "deleted"]).optional(),
  users: z.array(SeedUserSchema).optional(),
});

/** Shape of `--seed FILE` and of the `seed` option; everything is added to the default seed. */
export const SeedSchema = z.object({
  apps: z.array(SeedAppSchema).optional(),
  postgres: z.array(SeedClusterSchema).optional(),
});
export type SeedInput = z.input<typeof SeedSchema>;

export interface SeedApp {
  name: string;
  primaryRegion: string;
  org: string;
}
export interface SeedUser {
  name: string;
  reserved: boolean;
}
export interface SeedCluster {
  name: string;
  state: "ready" | "deleting" | "deleted";
  users: SeedUser[];
}
export interface Seed {
  apps: SeedApp[];
  clusters: SeedCluster[];
}

export { DEFAULT_ORG, DEFAULT_REGION };
/** Names the platform keeps for itself; rotating them is refused (spec 7, 400). */
export const RESERVED_USERS = new Set(["postgres"]);

export const DEFAULT_SEED: SeedInput = {
  apps: [{ name: "demo-app", primary_region: DEFAULT_REGION }],
  // Two application users: an alternating rotation (`alternateUsername`) needs a second one.
  postgres: [{ name: "demo-pg", users: ["app_user", "app_user_b", { name: "postgres", reserved: true }] }],
};

/** Default seed plus the given additions (same-named clusters gain the extra users). */
export function resolveSeed(extra: SeedInput | undefined, seedFile: string | undefined): Seed {
  const seed: Seed = { apps: [], clusters: [] };
  const inputs: SeedInput[] = [DEFAULT_SEED];
  if (seedFile) inputs.push(readSeedFile(seedFile));
  if (extra) inputs.push(parseSeed(extra, "seed option"));
  for (const input of inputs) mergeSeed(seed, input);
  return seed;
}

function readSeedFile(file: string): SeedInput {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, "utf8"));
  } catch (err) {
    throw new Error(`cannot read seed file ${file}: ${(err as Error).message}`);
  }
  return parseSeed(raw, `seed file ${file}`);
}

function parseSeed(raw: unknown, where: string): SeedInput {
  const parsed = SeedSchema.safeParse(raw);
  if (!parsed.success) throw new Error(`invalid ${where}: ${formatZodError(parsed.error)}`);
  return parsed.data;
}

function mergeSeed(seed: Seed, input: SeedInput): void {
  for (const app of input.apps ?? []) {
    const a = typeof app === "string" ? { name: app } : app;
    const existing = seed.apps.find((x) => x.name === a.name);
    const resolved = {
      name: a.name,
      primaryRegion: a.primary_region ?? existing?.primaryRegion ?? DEFAULT_REGION,
      org: a.org ?? existing?.org ?? DEFAULT_ORG,
    };
    if (existing) Object.assign(existing, resolved);
    else seed.apps.push(resolved);
  }
  for (const cluster of input.postgres ?? []) {
    let target = seed.clusters.find((c) => c.name === cluster.name);
    if (!target) {
      target = { name: cluster.name, state: "ready", users: [] };
      seed.clusters.push(target);
    }
    if (cluster.state) target.state = cluster.state;
    for (const user of cluster.users ?? []) {
      const u = typeof user === "string" ? { name: user } : user;
      const reserved = u.reserved ?? RESERVED_USERS.has(u.name);
      const existing = target.users.find((x) => x.name === u.name);
      if (existing) existing.reserved = reserved;
      else target.users.push({ name: u.name, reserved });
    }
  }
}
