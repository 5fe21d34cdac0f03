/**
 * The lookups (../lookups) as the plugin's functions (`platform:index:getVolume`, ...): their
 * arguments and whether they answer a list. A single answer's fields are the invoke's answer
 * (`getVolume(...).name`, as Pulumi's providers answer); a list is under `items`, since an invoke
 * answers an object. The credentials are the provider's, never arguments of an invoke.
 * @module
 */

import { acmeCertificateDeclaration } from "../kinds/certificates/declarations";
import { volumeDeclaration } from "../kinds/volume/declaration";
import type * as lookups from "../lookups";
import type { OutputDeclaration } from "../model/declaration";
import { type ObjectType, type TypeFor, t, type ValueType } from "../model/value-types";

type LookupName =
  | "getVolume"
  | "listVolumes"
  | "listSnapshots"
  | "getCertificate"
  | "listCertificates"
  | "checkCertificate";

/**
 * One lookup: its string arguments, the required ones, whether it answers a list, and the type of
 * its answer (of a list's entries) for the schema.
 */
export interface LookupSpec {
  readonly args: readonly string[];
  readonly required: readonly string[];
  readonly list: boolean;
  readonly result: ValueType;
}

/** The answer of lookup `N` (an entry of it, for a list). */
type Answer<N extends LookupName> =
  Awaited<ReturnType<(typeof lookups)[N]>> extends readonly (infer E)[]
    ? E
    : Awaited<ReturnType<(typeof lookups)[N]>>;

/** The tags of a resource's declared outputs, as the members of a lookup's answer. */
function outputTypes(outputs: Record<string, OutputDeclaration<unknown>>, leaveOut: string[] = []) {
  return Object.fromEntries(
    Object.entries(outputs)
      .filter(([name]) => !leaveOut.includes(name))
      .map(([name, declared]) => [name, declared.valueType]),
  );
}

// The answers' types: the resources' outputs where the lookup answers them (the same mappings).
const volumeInfo = t.object("VolumeInfo", outputTypes(volumeDeclaration.outputs, ["needsRestart"]));
const certificateInfo = t.object("CertificateInfo", {
  app: t.string,
  ...outputTypes(acmeCertificateDeclaration.outputs),
});
const snapshotInfo: TypeFor<Answer<"listSnapshots">> = t.object("SnapshotInfo", {
  snapshotId: t.string,
  size: t.number,
  digest: t.string,
  createdAt: t.string,
  retentionDays: t.nullable(t.integer),
});
const certificateSummary: TypeFor<Answer<"listCertificates">> = t.object("CertificateSummary", {
  hostname: t.string,
  status: t.string,
  dnsProvider: t.nullable(t.string),
  acmeDnsConfigured: t.boolean,
  acmeAlpnConfigured: t.boolean,
  acmeHttpConfigured: t.boolean,
  ownershipTxtConfigured: t.boolean,
  configured: t.boolean,
  acmeRequested: t.boolean,
  hasCustomCertificate: t.boolean,
  hasPlatformCertificate: t.boolean,
  createdAt: t.string,
  updatedAt: t.string,
});
const dnsRecordsInfo: TypeFor<lookups.DnsRecordsInfo> = t.object("DnsRecordsInfo", {
  a: t.array(t.string),
  aaaa: t.array(t.string),
  cname: t.array(t.string),
  resolvedAddresses: t.array(t.string),
  soa: t.nullable(t.string),
  acmeChallengeCname: t.nullable(t.string),
  ownershipTxt: t.nullable(t.string),
});
const certificateCheckInfo: ObjectType = t.object("CertificateCheckInfo", {
  ...certificateInfo.properties,
  dnsRecords: t.nullable(dnsRecordsInfo),
});

/** Every lookup served by `Invoke`, under the function's name. */
export const LOOKUPS = {
  getVolume: { args: ["app", "volumeId"], required: ["app", "volumeId"], list: false, result: volumeInfo },
  listVolumes: { args: ["app"], required: ["app"], list: true, result: volumeInfo },
  listSnapshots: {
    args: ["app", "volumeId"],
    required: ["app", "volumeId"],
    list: true,
    result: snapshotInfo,
  },
  getCertificate: {
    args: ["app", "hostname"],
    required: ["app", "hostname"],
    list: false,
    result: certificateInfo,
  },
  listCertificates: { args: ["app", "filter"], required: ["app"], list: true, result: certificateSummary },
  checkCertificate: {
    args: ["app", "hostname"],
    required: ["app", "hostname"],
    list: false,
    result: certificateCheckInfo,
  },
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
): Promise<{ answer: Record<string, unknown>; failures: { property: string; reason: string }[] }> {
  const spec: LookupSpec = LOOKUPS[name];
  const failures = spec.required
    .filter((a) => typeof args[a] !== "string" || (args[a] as string).trim() === "")
    .map((a) => ({ property: a, reason: `${a} is required: a non-empty string` }));
  if (failures.length > 0) return { answer: {}, failures };
  const strings = Object.fromEntries(
    spec.args.filter((a) => typeof args[a] === "string").map((a) => [a, args[a]]),
  );
  const module: typeof lookups = await import("../lookups");
  const call = module[name] as unknown as (a: Record<string, unknown>) => Promise<unknown>;
  const answer = await call({ ...strings, ...credentials });
  return { answer: spec.list ? { items: answer } : (answer as Record<string, unknown>), failures: [] };
}
