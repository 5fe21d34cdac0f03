/**
 * CustomCertificate: imports a PEM chain and key for a hostname (spec 4.2). A new chain or key is
 * imported again in place; the hostname stays. Delete removes only the custom kind, and the
 * hostname with it when no ACME request remains (see ./certificates).
 * @module
 */
import type { CertificateDetails } from "../../sdk";
import { type OutputValues, storedInputs } from "../declaration";
import { type CustomCertificateInputs, customCertificateDeclaration } from "../declarations/certificates";
import { daysUntil } from "../lifetime";
import { parseCertificateChain } from "../validation/certificate";
import {
  type CertificateResourceKind,
  certificateOutputs,
  getHostname,
  hasCustom,
  postIdempotent,
  readCertificate,
  removeCertificate,
  waitIfRequested,
} from "./certificates";
import { platformClient } from "./credentials";
import { defineProvider } from "./define";
import { ApiError, explain } from "./errors";
import { providerOf, ResourceInitError } from "./kept-in-stack";

type Props = Record<string, unknown>;

const STORED = storedInputs(customCertificateDeclaration);

/** Expiry and issuer of the custom certificate: the platform's entry, else the PEM's leaf. */
function leafFacts(
  details: CertificateDetails,
  fullchain: unknown,
): { expiresAt: string | null; issuer: string | null } {
  const entry = details.certificates.find((c) => c.source === "custom");
  let expiresAt: string | null = entry?.expires_at ?? null;
  let issuer: string | null = entry?.issuer ?? null;
  if ((expiresAt === null || issuer === null) && typeof fullchain === "string") {
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

function outputs(
  details: CertificateDetails,
  inputs: Props,
  previous: Props = {},
): OutputValues<typeof customCertificateDeclaration> {
  const facts = leafFacts(details, inputs.fullchain);
  return {
    ...certificateOutputs(details, inputs, STORED, previous),
    ...facts,
    expiresInDays: daysUntil(facts.expiresAt, new Date()),
  };
}

const CUSTOM: CertificateResourceKind = { kind: "custom", stored: STORED, outputs };

/**
 * Whether the hostname's custom certificate is the leaf of `fullchain`. The platform returns no
 * fingerprint, so: the same expiry to the second and, when the platform names an issuer, the
 * leaf's issuer (its CN, or its whole DN). A key that fits that certificate is the same key pair,
 * so a changed key cannot hide behind a matching certificate.
 */
export function holdsLeaf(details: CertificateDetails, fullchain: unknown): boolean {
  const entry = details.certificates.find((c) => c.source === "custom");
  if (!entry?.expires_at || typeof fullchain !== "string") return false;
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

/**
 * Imports the chain and key. The import is idempotent, so a lost answer is resolved by looking
 * (the hostname now holds this leaf: it landed) or by importing again. When the platform refuses
 * a second import over an existing custom certificate (409), the old one is removed first; the
 * hostname stays (spec 4.2 rule 7).
 */
async function importChain(inputs: Props): Promise<CertificateDetails> {
  const { app, hostname, fullchain, privateKey } = inputs as CustomCertificateInputs;
  const certs = platformClient().certificates;
  const body = { hostname, fullchain, private_key: privateKey };
  const action = `importing the custom certificate of ${hostname} (app ${app})`;
  const send = () =>
    postIdempotent(
      CUSTOM,
      inputs,
      action,
      () => certs.importCustom(app, body),
      (details) => holdsLeaf(details, fullchain),
    );
  try {
    return await send();
  } catch (err) {
    if (err instanceof ResourceInitError) throw err;
    if (!(err instanceof ApiError && err.status === 409)) throw explain(err, action, importAdvice(err));
  }
  try {
    await certs.deleteCustom(app, hostname);
    return await send();
  } catch (err) {
    if (err instanceof ResourceInitError) throw err;
    throw explain(err, action, importAdvice(err));
  }
}

function importAdvice(err: unknown): string | undefined {
  if (err instanceof ApiError && (err.status === 400 || err.status === 422)) {
    return "The platform rejects expired certificates, keys that do not match, and hostnames not in the certificate's SAN or CN";
  }
  return undefined;
}

/**
 * Imports the certificate. A hostname that already holds exactly this leaf is taken as it is,
 * without importing (what `adoptExisting` asks for, and what an earlier import of this resource
 * whose answer was lost left); another custom certificate is imported over only with
 * `adoptExisting`.
 */
async function create(inputs: Props): Promise<{ id: string; outs: Props }> {
  const args = inputs as CustomCertificateInputs;
  const existing = await getHostname(args.app, args.hostname);
  const id = args.hostname;
  let details: CertificateDetails;
  if (existing && holdsLeaf(existing, args.fullchain)) {
    details = existing;
  } else if (existing && hasCustom(existing) && args.adoptExisting !== true) {
    throw new Error(
      `hostname ${args.hostname} of app ${args.app} already has another custom certificate; set adoptExisting: true to replace it with this one and manage it, or delete it first`,
    );
  } else {
    details = await importChain(inputs);
  }
  details = await waitIfRequested(CUSTOM, details, inputs, id);
  return { id, outs: outputs(details, inputs) };
}

/**
 * Imports a new chain or key in place when either changed, or when the hostname holds no custom
 * certificate any more; records changed wait settings.
 */
async function update(id: string, olds: Props, news: Props): Promise<{ outs: Props }> {
  const args = news as CustomCertificateInputs;
  const withProvider = { ...news, ...providerOf(olds), ...providerOf(news) };
  let details: CertificateDetails | undefined;
  if (olds.fullchain !== news.fullchain || olds.privateKey !== news.privateKey) {
    details = await importChain(withProvider);
  } else {
    details = await getHostname(args.app, args.hostname);
    // Gone, or never landed (a create whose answers were all lost): import it again.
    if (!details || !hasCustom(details)) details = await importChain(withProvider);
  }
  details = await waitIfRequested(CUSTOM, details, news, id);
  return { outs: outputs(details, news, olds) };
}

/** The provider methods of `CustomCertificate`. */
export const customCertificate = defineProvider(customCertificateDeclaration, {
  create,
  /** Reads the hostname; gone when the hostname is deleted or no longer holds this kind. */
  read: (id, props) => readCertificate(CUSTOM, id, props),
  update,
  /** Removes the custom certificate; removes the hostname too when no ACME request remains. */
  delete: (id, props) => removeCertificate(CUSTOM, id, props),
});
