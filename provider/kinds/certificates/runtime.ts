/**
 * The two certificate kinds as data for the one certificate runtime (./hostname-runtime):
 * `AcmeCertificate` requests ACME issuance for a hostname; `CustomCertificate` imports a PEM chain
 * and key (a new chain or key is imported again in place; the hostname stays). Each removes only
 * its kind on delete, and the hostname with it when the other kind is absent.
 * @module
 */
import type { CertificateDetails } from "../../../sdk";
import { daysUntil } from "../../model/lifetime";
import { parseCertificateChain } from "../../model/validation/certificate";
import { platformClient } from "../../runtime/credentials";
import { ApiError } from "../../runtime/errors";
import { acmeCertificateDeclaration, customCertificateDeclaration } from "./declarations";
import { type CertificateKindSpec, certificateProvider } from "./hostname-runtime";

/** ACME: the request is the same whoever made it, so taking an existing one needs `adoptExisting`. */
const ACME: CertificateKindSpec<typeof acmeCertificateDeclaration> = {
  kind: "acme",
  declaration: acmeCertificateDeclaration,
  action: (app, hostname) => `requesting an ACME certificate for ${hostname} (app ${app})`,
  post: ({ app, hostname }) => platformClient().certificates.requestAcme(app, hostname),
  remove: (app, hostname) => platformClient().certificates.deleteAcme(app, hostname),
  landed: (details) => details.acme_requested,
  takesLanded: false,
  refusal: (app, hostname) =>
    `hostname ${hostname} of app ${app} already has an ACME certificate requested; set adoptExisting: true to manage it with this resource, or delete it first`,
  resendOn: [],
  clearsOnConflict: false,
  advice: () => undefined,
  extraOutputs: () => ({}),
};

/**
 * Custom: a hostname holding exactly this leaf is what an earlier import of this resource (whose
 * answer was lost) left, so it is taken without `adoptExisting`; another custom certificate is
 * imported over only with it.
 */
const CUSTOM: CertificateKindSpec<typeof customCertificateDeclaration> = {
  kind: "custom",
  declaration: customCertificateDeclaration,
  action: (app, hostname) => `importing the custom certificate of ${hostname} (app ${app})`,
  post: ({ app, hostname, fullchain, privateKey }) =>
    platformClient().certificates.importCustom(app, { hostname, fullchain, private_key: privateKey }),
  remove: (app, hostname) => platformClient().certificates.deleteCustom(app, hostname),
  landed: (details, { fullchain }) => holdsLeaf(details, fullchain),
  takesLanded: true,
  refusal: (app, hostname) =>
    `hostname ${hostname} of app ${app} already has another custom certificate; set adoptExisting: true to replace it with this one and manage it, or delete it first`,
  resendOn: ["fullchain", "privateKey"],
  clearsOnConflict: true,
  advice: importAdvice,
  extraOutputs(details, { fullchain }) {
    const facts = leafFacts(details, fullchain);
    return { ...facts, expiresInDays: daysUntil(facts.expiresAt, new Date()) };
  },
};

function importAdvice(err: unknown): string | undefined {
  if (err instanceof ApiError && (err.status === 400 || err.status === 422)) {
    return "The platform rejects expired certificates, keys that do not match, and hostnames not in the certificate's SAN or CN";
  }
  return undefined;
}

/** Expiry and issuer of the custom certificate: the platform's entry, else the PEM's leaf. */
function leafFacts(
  details: CertificateDetails,
  fullchain: string | undefined,
): { expiresAt: string | null; issuer: string | null } {
  const entry = details.certificates.find((c) => c.source === "custom");
  let expiresAt: string | null = entry?.expires_at ?? null;
  let issuer: string | null = entry?.issuer ?? null;
  if ((expiresAt === null || issuer === null) && fullchain !== undefined) {
    try {
      const leaf = parseCertificateChain(fullchain)[0];
      if (leaf) {
        expiresAt ??= new Date(leaf.validTo).toISOString();
        issuer ??= leaf.issuer.replace(/\n/g, ", ");
      }
    } catch {
      // check() already rejected an unreadable chain; nothing more to report here.
    }
  }
  return { expiresAt, issuer };
}

/**
 * Whether the hostname's custom certificate is the leaf of `fullchain`. The platform returns no
 * fingerprint, so: the same expiry to the second and, when the platform names an issuer, the
 * leaf's issuer (its CN, or its whole DN). A key that fits that certificate is the same key pair,
 * so a changed key cannot hide behind a matching certificate.
 */
export function holdsLeaf(details: CertificateDetails, fullchain: string): boolean {
  const entry = details.certificates.find((c) => c.source === "custom");
  if (!entry?.expires_at) return false;
  let leaf: ReturnType<typeof parseCertificateChain>[number] | undefined;
  try {
    leaf = parseCertificateChain(fullchain)[0];
  } catch {
    return false;
  }
  if (!leaf) return false;
  const second = (t: string) => Math.floor(Date.parse(t) / 1000);
  if (second(entry.expires_at) !== second(leaf.validTo)) return false;
  if (entry.issuer === null) return true;
  const cn = /(?:^|\n)CN=([^\n]+)/.exec(leaf.issuer)?.[1]?.trim();
  return entry.issuer === cn || entry.issuer === leaf.issuer.replace(/\n/g, ", ");
}

/** The provider methods of `AcmeCertificate`. */
export const acmeCertificate = certificateProvider(ACME);

/** The provider methods of `CustomCertificate`. */
export const customCertificate = certificateProvider(CUSTOM);
