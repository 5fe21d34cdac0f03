/**
 * What `pulumi-platform adopt` will declare: an app's volumes and certificate kinds read through
 * the sdk, each with a readable, stable resource name, TypeScript variable and the inputs it has
 * today. Rendering (TypeScript or JSON) lives in ./adoption-program.
 * @module
 */

import type { CertificateEntryOutput } from "../provider/kinds/certificates/declarations";
import { type CertificateReport, certificateReport } from "../provider/kinds/certificates/mapping";
import {
  type VolumeLiveInputs,
  type VolumeReport,
  volumeLiveInputs,
  volumeReport,
} from "../provider/kinds/volume/mapping";
import type { CertificateDetails, CertificateListEntry, PlatformClient, Volume } from "../sdk";
import { GONE_VOLUME_STATES } from "../sdk/schemas/volume-constants";

/** Which families `--only` keeps. */
export type AdoptionFamily = "volumes" | "certificates";

/** What to read: the app, and what `--filter` / `--only` keep. */
export interface AdoptionQuery {
  app: string;
  /** Substring of a volume name or id, or of a hostname. */
  filter?: string;
  /** One family only; both when undefined. */
  only?: AdoptionFamily;
}

/** A volume to declare with `adoptVolumeId`. */
export interface AdoptedVolume {
  /** Pulumi resource name (the URN's last part). */
  resourceName: string;
  /** TypeScript variable of the declaration. */
  variable: string;
  volumeId: string;
  /**
   * `VolumeArgs` as they are today: the app, `adoptVolumeId` and every live input as the platform
   * reports it (`fstype` left out when the platform reports none).
   */
  inputs: { app: string; adoptVolumeId: string } & Omit<VolumeLiveInputs, "fstype"> &
    Partial<Pick<VolumeLiveInputs, "fstype">>;
  /** Read-only facts shown in a comment. */
  facts: Pick<VolumeReport, "state" | "zone" | "attachedMachineId" | "createdAt">;
}

/**
 * The platform's facts about the custom certificate a hostname holds (no key: never returned), as
 * the certificate resources report them.
 */
export type CustomCertificateFacts = Pick<CertificateEntryOutput, "expiresAt" | "issuer"> &
  Pick<CertificateReport, "status">;

/** One certificate kind of a hostname, to declare with `adoptExisting: true`. */
export interface AdoptedCertificate {
  kind: "acme" | "custom";
  resourceName: string;
  variable: string;
  hostname: string;
  /** Hostname status today. */
  status: string;
  /** Custom only: the stack config keys the user fills with the PEM chain and key. */
  config?: { fullchain: string; privateKey: string };
  /** Custom only: what the platform says of the certificate it holds. */
  custom?: CustomCertificateFacts;
}

/** Everything the command found, in declaration order. */
export interface AdoptionPlan {
  app: string;
  filter: string | null;
  only: AdoptionFamily | null;
  volumes: AdoptedVolume[];
  certificates: AdoptedCertificate[];
  /** Things found but not declared, with the reason (destroyed volumes, bare hostnames). */
  skipped: { what: string; reason: string }[];
}

/** Page size of the certificate list (the platform's maximum in the emulator). */
const CERTIFICATE_PAGE = 100;

/**
 * Reads the app through the sdk: one volume list, the certificate list (paged), and one GET per
 * hostname holding a custom certificate (its expiry and issuer tell the user which PEM to supply).
 */
export async function readAdoptionPlan(client: PlatformClient, query: AdoptionQuery): Promise<AdoptionPlan> {
  const filter = query.filter ?? "";
  const skipped: AdoptionPlan["skipped"] = [];
  let volumes: Volume[] = [];
  if (query.only !== "certificates") {
    volumes = (await client.volumes.list(query.app))
      .filter((v) => v.name.includes(filter) || v.id.includes(filter))
      .filter((v) => {
        if (!GONE_VOLUME_STATES.has(v.state)) return true;
        skipped.push({ what: `volume ${v.id} (${v.name})`, reason: `it is ${v.state}` });
        return false;
      });
  }
  const hostnames: CertificateListEntry[] = [];
  if (query.only !== "volumes") {
    const opts = { limit: CERTIFICATE_PAGE, ...(filter ? { filter } : {}) };
    for await (const entry of client.certificates.listAll(query.app, opts)) {
      if (entry.hostname.includes(filter)) hostnames.push(entry);
    }
  }
  const customFacts = new Map<string, CustomCertificateFacts>();
  for (const entry of hostnames) {
    if (!entry.has_custom_certificate) continue;
    customFacts.set(entry.hostname, customFactsOf(await client.certificates.get(query.app, entry.hostname)));
  }
  for (const entry of hostnames) {
    if (!entry.acme_requested && !entry.has_custom_certificate) {
      skipped.push({ what: `hostname ${entry.hostname}`, reason: "it holds no certificate" });
    }
  }
  return planFrom(query, volumes, hostnames, customFacts, skipped);
}

function customFactsOf(details: CertificateDetails): CustomCertificateFacts {
  const report = certificateReport(details);
  const entry = report.certificates.find((c) => c.source === "custom");
  return { expiresAt: entry?.expiresAt ?? null, issuer: entry?.issuer ?? null, status: report.status };
}

/** Builds the plan from what was read; pure, so the naming rules are tested on their own. */
export function planFrom(
  query: AdoptionQuery,
  volumes: readonly Volume[],
  hostnames: readonly CertificateListEntry[],
  customFacts: ReadonlyMap<string, CustomCertificateFacts>,
  skipped: AdoptionPlan["skipped"] = [],
): AdoptionPlan {
  const names = new UniqueNames();
  const sortedVolumes = [...volumes].sort(
    (a, b) => compare(a.name, b.name) || compare(a.created_at, b.created_at) || compare(a.id, b.id),
  );
  const nameCounts = new Map<string, number>();
  for (const v of sortedVolumes) nameCounts.set(v.name, (nameCounts.get(v.name) ?? 0) + 1);
  const adoptedVolumes = sortedVolumes.map((v): AdoptedVolume => {
    // A name several volumes share (one per machine is common) gets the volume id: stable
    // whatever volumes come and go, unlike a counter.
    const base = (nameCounts.get(v.name) ?? 0) > 1 ? `${v.name}-${v.id.replace(/^vol_/, "")}` : v.name;
    const resourceName = names.resource(base);
    const report = volumeReport(v);
    const { name, ...live } = volumeLiveInputs(report);
    // The declaration's order, `adoptVolumeId` after the name.
    const inputs: AdoptedVolume["inputs"] = { app: query.app, name, adoptVolumeId: v.id, ...live };
    if (!inputs.fstype) delete inputs.fstype;
    return {
      resourceName,
      variable: names.variable(`${resourceName} volume`),
      volumeId: v.id,
      inputs,
      facts: {
        state: report.state,
        zone: report.zone,
        attachedMachineId: report.attachedMachineId,
        createdAt: report.createdAt,
      },
    };
  });
  const certificates: AdoptedCertificate[] = [];
  for (const entry of [...hostnames].sort((a, b) => compare(a.hostname, b.hostname))) {
    const label = entry.hostname.replace(/^\*\./, "wildcard.");
    if (entry.acme_requested) {
      const resourceName = names.resource(`${label}-acme`);
      certificates.push({
        kind: "acme",
        resourceName,
        variable: names.variable(`${label} acme`),
        hostname: entry.hostname,
        status: entry.status,
      });
    }
    if (entry.has_custom_certificate) {
      const resourceName = names.resource(`${label}-custom`);
      const variable = names.variable(`${label} custom`);
      const key = camel(label);
      certificates.push({
        kind: "custom",
        resourceName,
        variable,
        hostname: entry.hostname,
        status: entry.status,
        config: { fullchain: `${key}Fullchain`, privateKey: `${key}PrivateKey` },
        custom: customFacts.get(entry.hostname) ?? { expiresAt: null, issuer: null, status: entry.status },
      });
    }
  }
  return {
    app: query.app,
    filter: query.filter ?? null,
    only: query.only ?? null,
    volumes: adoptedVolumes,
    certificates,
    skipped,
  };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** lowerCamelCase of the words of `text` (anything not a letter or digit separates words). */
export function camel(text: string): string {
  const words = text.split(/[^A-Za-z0-9]+/).filter(Boolean);
  const joined = words
    .map((w, i) => (i === 0 ? w.toLowerCase() : w.charAt(0).toUpperCase() + w.slice(1).toLowerCase()))
    .join("");
  return /^[0-9]/.test(joined) || joined === "" ? `v${joined}` : joined;
}

const RESERVED = new Set(
  (
    "break case catch class const continue debugger default delete do else enum export extends false " +
    "finally for function if import in instanceof new null return super switch this throw true try " +
    "typeof var void while with as implements interface let package private protected public static " +
    "yield await app config pulumi opts Volume AcmeCertificate CustomCertificate"
  ).split(" "),
);

/**
 * Hands out resource names and variables without collisions, deterministically: the first
 * holder of a name keeps it, later ones get `-2`, `-3` (resources) or `2`, `3` (variables) in
 * the order the plan is built, which is sorted.
 */
class UniqueNames {
  private readonly resources = new Set<string>();
  private readonly variables = new Set<string>();

  resource(base: string): string {
    return takeUnique(this.resources, base, (n) => `${base}-${n}`);
  }

  variable(words: string): string {
    const base = camel(words);
    return takeUnique(this.variables, RESERVED.has(base) ? `${base}Resource` : base, (n) => `${base}${n}`);
  }
}

function takeUnique(taken: Set<string>, base: string, numbered: (n: number) => string): string {
  let name = base;
  for (let n = 2; taken.has(name); n++) name = numbered(n);
  taken.add(name);
  return name;
}
