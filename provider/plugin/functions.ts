/**
 * The lookups (../lookups) as the plugin's functions (`platform:index:getVolume`, ...): their
 * arguments and whether they answer a list (returned under `items`, since an invoke returns an
 * object). The credentials are the provider's, never arguments of an invoke.
 * @module
 */
import type * as lookups from "../program/lookups";

type LookupName =
  | "getVolume"
  | "listVolumes"
  | "listSnapshots"
  | "getCertificate"
  | "listCertificates"
  | "checkCertificate";

/** One lookup: its string arguments, the required ones, and whether it answers a list. */
export interface LookupSpec {
  readonly args: readonly string[];
  readonly required: readonly string[];
  readonly list: boolean;
}

/** Every lookup served by `Invoke`, under the function's name. */
export const LOOKUPS = {
  getVolume: { args: ["app", "volumeId"], required: ["app", "volumeId"], list: false },
  listVolumes: { args: ["app"], required: ["app"], list: true },
  listSnapshots: { args: ["app", "volumeId"], required: ["app", "volumeId"], list: true },
  getCertificate: { args: ["app", "hostname"], required: ["app", "hostname"], list: false },
  listCertificates: { args: ["app", "filter"], required: ["app"], list: true },
  checkCertificate: { args: ["app", "hostname"], required: ["app", "hostname"], list: false },
} as const satisfies Record<LookupName, LookupSpec> & Record<keyof typeof lookups & LookupName, LookupSpec>;

/** Whether `name` is one of the plugin's functions. */
export function isLookupName(name: string): name is LookupName {
  return Object.hasOwn(LOOKUPS, name);
}

/**
 * Calls the lookup `name` with `args` (checked: each required one a non-empty string) and the
 * provider's credentials; the module is loaded at the first invoke only.
 */
export async function invokeLookup(
  name: LookupName,
  args: Record<string, unknown>,
  credentials: { apiUrl?: string; apiToken?: string },
): Promise<{ result: Record<string, unknown>; failures: { property: string; reason: string }[] }> {
  const spec: LookupSpec = LOOKUPS[name];
  const failures = spec.required
    .filter((a) => typeof args[a] !== "string" || (args[a] as string).trim() === "")
    .map((a) => ({ property: a, reason: `${a} is required: a non-empty string` }));
  if (failures.length > 0) return { result: {}, failures };
  const strings = Object.fromEntries(
    spec.args.filter((a) => typeof args[a] === "string").map((a) => [a, args[a]]),
  );
  const module: typeof lookups = await import("../program/lookups");
  const call = module[name] as unknown as (a: Record<string, unknown>) => Promise<unknown>;
  const answer = await call({ ...strings, ...credentials });
  return { result: spec.list ? { items: answer } : { result: answer }, failures: [] };
}
