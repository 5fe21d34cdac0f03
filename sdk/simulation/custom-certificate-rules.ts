/**
 * The platform's import rules for a custom certificate (spec 4.2 rule 3: a PEM chain and a key
 * that match, covering the hostname, not expired), as the emulator enforces them and the testing
 * mocks read a chain's expiry and issuer from it. Node's X509Certificate does the parsing.
 * @module
 */
import { createPrivateKey, type KeyObject, X509Certificate } from "node:crypto";

export interface ValidatedCertificate {
  validFrom: number;
  validTo: number;
  issuer: string;
  fingerprint: string;
}

/** Which import rule (spec 4.2 rule 3) a custom certificate broke. */
export class CertificateRuleError extends Error {
  override readonly name = "CertificateRuleError";
}

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/**
 * Validates an imported certificate for real: every PEM block parses, the leaf is within its
 * validity window at `now`, the private key matches it, and `hostname` is covered by a SAN
 * or the CN. A wildcard hostname (`*.example.com`) needs that exact wildcard in the certificate;
 * a plain hostname may be covered by a wildcard certificate (one label deep).
 */
export function validateCustomCertificate(
  hostname: string,
  fullchain: string,
  privateKeyPem: string,
  now: number,
): ValidatedCertificate {
  const blocks = fullchain.match(PEM_BLOCK) ?? [];
  if (blocks.length === 0) throw new CertificateRuleError("fullchain contains no PEM certificate");
  let chain: X509Certificate[];
  try {
    chain = blocks.map((b) => new X509Certificate(b));
  } catch (err) {
    throw new CertificateRuleError(
      `fullchain is not a valid PEM certificate chain: ${(err as Error).message}`,
    );
  }
  const leaf = chain[0] as X509Certificate;
  let key: KeyObject;
  try {
    key = createPrivateKey(privateKeyPem);
  } catch (err) {
    throw new CertificateRuleError(`private_key is not a valid PEM private key: ${(err as Error).message}`);
  }
  const validFrom = Date.parse(leaf.validFrom);
  const validTo = Date.parse(leaf.validTo);
  if (validTo <= now) {
    throw new CertificateRuleError(`certificate expired on ${new Date(validTo).toISOString()}`);
  }
  if (validFrom > now) {
    throw new CertificateRuleError(
      `certificate is not valid yet: valid from ${new Date(validFrom).toISOString()}`,
    );
  }
  if (!leaf.checkPrivateKey(key)) {
    throw new CertificateRuleError("private key does not match the certificate");
  }
  if (!coversHostname(leaf, hostname)) {
    throw new CertificateRuleError(
      `hostname "${hostname}" is not covered by the certificate's Subject Alternative Names or Common Name ` +
        `(${certificateNames(leaf).join(", ") || "none"})`,
    );
  }
  return {
    validFrom,
    validTo,
    issuer: commonName(leaf.issuer) ?? leaf.issuer.replace(/\n/g, ", "),
    fingerprint: leaf.fingerprint256,
  };
}

function coversHostname(cert: X509Certificate, hostname: string): boolean {
  if (hostname.startsWith("*.")) {
    return certificateNames(cert).some((n) => n.toLowerCase() === hostname);
  }
  // `always` also accepts the CN when SANs exist: the spec says "SAN or CN".
  return cert.checkHost(hostname, { subject: "always" }) !== undefined;
}

function certificateNames(cert: X509Certificate): string[] {
  const names: string[] = [];
  for (const part of (cert.subjectAltName ?? "").split(/,\s*/)) {
    if (part.startsWith("DNS:")) names.push(part.slice(4));
  }
  const cn = commonName(cert.subject);
  if (cn) names.push(cn);
  return names;
}

function commonName(dn: string): string | undefined {
  return dn
    .split("\n")
    .find((line) => line.startsWith("CN="))
    ?.slice(3);
}
