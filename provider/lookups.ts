/**
 * Plain async functions for programs to look things up on the platform. Credentials come from
 * the arguments, else the stack config (`platform:apiUrl`, `platform:apiToken`), else the
 * environment (`PLATFORM_API_URL`, `PLATFORM_API_TOKEN`).
 * @module
 */
import type * as pulumi from "@pulumi/pulumi";
import type { CertificateDetails, CertificateListEntry, PlatformClient } from "../sdk";
import { type CertificateReport, certificateReport } from "./kinds/certificates/mapping";
import { type VolumeReport, volumeReport } from "./kinds/volume/mapping";
import { type SnapshotInfo, snapshotInfo } from "./kinds/volume-snapshot/mapping";
import { resolveCredentials } from "./model/credentials-resolver";

/**
 * Credentials of a lookup; each falls back to the stack config, then the environment (a blank
 * value counts as not given).
 */
export interface LookupCredentials {
  /** Base URL of the platform API. */
  apiUrl?: string;
  /** API token (never logged). */
  apiToken?: string;
}

/** The app a lookup asks about. */
export interface AppLookupArgs {
  /** Name of the app. */
  app: string;
}

/** A volume of the app. */
export interface VolumeLookupArgs extends AppLookupArgs {
  /** Id of the volume. */
  volumeId: string;
}

/** A hostname of the app. */
export interface HostnameLookupArgs extends AppLookupArgs {
  /** Hostname; a wildcard is `*.example.com`. */
  hostname: string;
}

/** The hostnames of the app to list. */
export interface CertificateListLookupArgs extends AppLookupArgs {
  /** Only the hostnames that contain this text; all when left out. */
  filter?: string;
}

/**
 * A volume, camelCase (spec 2.2): the `Volume` resource's outputs the platform reports (the same
 * mapping, ./kinds/volume/mapping).
 */
export type VolumeInfo = VolumeReport;

export type { SnapshotInfo };

/** A certificate list entry, camelCase (spec 2.6). */
export interface CertificateSummary {
  /** Hostname. */
  hostname: string;
  /** Overall status. */
  status: string;
  /** Detected DNS provider; null when the platform does not name one. */
  dnsProvider: string | null;
  /** ACME DNS validation passed. */
  acmeDnsConfigured: boolean;
  /** ACME ALPN validation passed. */
  acmeAlpnConfigured: boolean;
  /** ACME HTTP validation passed. */
  acmeHttpConfigured: boolean;
  /** Ownership TXT record present. */
  ownershipTxtConfigured: boolean;
  /** Hostname configured. */
  configured: boolean;
  /** ACME requested. */
  acmeRequested: boolean;
  /** Holds a custom certificate. */
  hasCustomCertificate: boolean;
  /** Holds a platform (ACME) certificate. */
  hasPlatformCertificate: boolean;
  /** Creation timestamp. */
  createdAt: string;
  /** Update timestamp. */
  updatedAt: string;
}

/**
 * A hostname record, camelCase (spec 2.5), and its app: the outputs both certificate resources
 * declare (the same mapping, ./kinds/certificates/mapping).
 */
export type CertificateInfo = {
  /** App serving the hostname. */
  app: string;
} & CertificateReport;

/** What the platform's DNS check saw; a record that is missing is null. */
export interface DnsRecordsInfo {
  /** A records of the hostname. */
  a: string[];
  /** AAAA records of the hostname. */
  aaaa: string[];
  /** CNAME records of the hostname. */
  cname: string[];
  /** Addresses the hostname resolves to. */
  resolvedAddresses: string[];
  /** SOA of the hostname's zone, or null. */
  soa: string | null;
  /** Target of the `_acme-challenge` CNAME, or null when it is missing. */
  acmeChallengeCname: string | null;
  /** Value of the ownership TXT record, or null when it is missing. */
  ownershipTxt: string | null;
}

/** A hostname record plus what actually resolves (`dnsRecords`). */
export type CertificateCheckInfo = CertificateInfo & {
  /** What the platform's DNS check saw; null when the answer carried no `dns_records`. */
  dnsRecords: DnsRecordsInfo | null;
};

function fromConfig(key: string): string | undefined {
  try {
    // Required here: a program has Pulumi loaded already; the provider plugin's `invoke` passes its
    // credentials, and loads the whole Pulumi runtime (half a second) only when it has none.
    const { runtime } = require("@pulumi/pulumi") as typeof pulumi;
    return runtime.getConfig(key);
  } catch {
    return undefined;
  }
}

/**
 * The sdk, loaded at the first lookup: a program that only declares resources never loads the
 * HTTP client (about 100 ms of every `pulumi up`).
 */
async function loadLookupModules() {
  const [sdk, advice] = await Promise.all([import("../sdk"), import("./model/token-advice")]);
  return { PlatformClient: sdk.PlatformClient, withTokenAdvice: advice.withTokenAdvice };
}

/** The certificate resources' outputs of a hostname record, with its app. */
function certificateInfo(app: string, details: CertificateDetails): CertificateInfo {
  return { app, ...certificateReport(details) };
}

async function withClient<T>(
  creds: LookupCredentials | undefined,
  fn: (client: PlatformClient) => Promise<T>,
): Promise<T> {
  const resolved = resolveCredentials({
    args: creds,
    argNames: { apiUrl: "apiUrl", apiToken: "apiToken" },
    config: fromConfig,
    env: process.env,
  });
  if (!resolved.ok) throw new Error(`platform credentials: ${resolved.problems.join("; ")}`);
  const { PlatformClient, withTokenAdvice } = await loadLookupModules();
  const client = new PlatformClient({
    baseUrl: resolved.apiUrl,
    token: resolved.apiToken,
    userAgent: "pulumi-platform-provider",
  });
  try {
    return await fn(client);
  } catch (err) {
    throw withTokenAdvice(err);
  } finally {
    await client.close();
  }
}

function summary(e: CertificateListEntry): CertificateSummary {
  return {
    hostname: e.hostname,
    status: e.status,
    dnsProvider: e.dns_provider,
    acmeDnsConfigured: e.acme_dns_configured,
    acmeAlpnConfigured: e.acme_alpn_configured,
    acmeHttpConfigured: e.acme_http_configured,
    ownershipTxtConfigured: e.ownership_txt_configured,
    configured: e.configured,
    acmeRequested: e.acme_requested,
    hasCustomCertificate: e.has_custom_certificate,
    hasPlatformCertificate: e.has_platform_certificate,
    createdAt: e.created_at,
    updatedAt: e.updated_at,
  };
}

/** Gets one volume of an app. */
export function getVolume(args: VolumeLookupArgs & LookupCredentials): Promise<VolumeInfo> {
  return withClient(args, async (c) => volumeReport(await c.volumes.get(args.app, args.volumeId)));
}

/** Lists the volumes of an app. */
export function listVolumes(args: AppLookupArgs & LookupCredentials): Promise<VolumeInfo[]> {
  return withClient(args, async (c) => (await c.volumes.list(args.app)).map(volumeReport));
}

/** Lists the snapshots of a volume. */
export function listSnapshots(args: VolumeLookupArgs & LookupCredentials): Promise<SnapshotInfo[]> {
  return withClient(args, async (c) =>
    (await c.volumes.listSnapshots(args.app, args.volumeId)).map(snapshotInfo),
  );
}

/** Gets the certificate details of a hostname (wildcards allowed). */
export function getCertificate(args: HostnameLookupArgs & LookupCredentials): Promise<CertificateInfo> {
  return withClient(args, async (c) =>
    certificateInfo(args.app, await c.certificates.get(args.app, args.hostname)),
  );
}

/** Lists every hostname of an app, following all pages; `filter` is a hostname substring. */
export function listCertificates(
  args: CertificateListLookupArgs & LookupCredentials,
): Promise<CertificateSummary[]> {
  return withClient(args, async (c) => {
    const all: CertificateSummary[] = [];
    for await (const entry of c.certificates.listAll(args.app, args.filter ? { filter: args.filter } : {})) {
      all.push(summary(entry));
    }
    return all;
  });
}

/** Runs the platform's DNS check of a hostname: details plus what actually resolves. */
export function checkCertificate(
  args: HostnameLookupArgs & LookupCredentials,
): Promise<CertificateCheckInfo> {
  return withClient(args, async (c) => {
    const { dns_records: r, ...res } = await c.certificates.check(args.app, args.hostname);
    return {
      ...certificateInfo(args.app, res),
      dnsRecords: r && {
        a: r.a,
        aaaa: r.aaaa,
        cname: r.cname,
        resolvedAddresses: r.resolved_addresses,
        soa: r.soa,
        acmeChallengeCname: r.acme_challenge_cname,
        ownershipTxt: r.ownership_txt,
      },
    };
  });
}
