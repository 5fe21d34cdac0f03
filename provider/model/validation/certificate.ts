/**
 * Rules of certificate inputs: the hostname, and a custom certificate's PEM, parsed at
 * preview with node:crypto, so an expired certificate, a key that does not match or a hostname
 * the certificate does not cover fails before anything is sent (spec 4.2 rule 3).
 * @module
 */
import { createPrivateKey, type KeyObject, X509Certificate } from "node:crypto";
import { isUnknown, type ValidationFailure } from "./common";
import { requiredString } from "./fields";
import { certificateNameCovers, hostnameProblem } from "./hostname";

/** Default of `waitTimeoutSeconds` of both certificate kinds. */
export const DEFAULT_CERTIFICATE_WAIT_SECONDS = 300;

/** A required hostname: lowercase, a wildcard only as the first label (`*.example.com`). */
export const hostnameField = requiredString(
  "hostname",
  "the custom hostname, e.g. app.example.com or *.example.com",
).refine((value) => hostnameProblem(value) === undefined, {
  error: (iss) => `hostname ${hostnameProblem(String(iss.input))} (got ${JSON.stringify(iss.input)})`,
});

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** Splits a PEM chain into certificates, leaf first; throws with a reason when one does not parse. */
export function parseCertificateChain(fullchain: string): X509Certificate[] {
  const blocks = fullchain.match(PEM_CERTIFICATE) ?? [];
  if (blocks.length === 0) throw new Error("contains no PEM certificate (-----BEGIN CERTIFICATE-----)");
  return blocks.map((block, i) => {
    try {
      return new X509Certificate(block);
    } catch (err) {
      throw new Error(`certificate ${i + 1} of the chain does not parse: ${(err as Error).message}`);
    }
  });
}

/** DNS names of a certificate: its SAN DNS entries and its subject CN. */
export function certificateNames(cert: X509Certificate): { san: string[]; cn: string | undefined } {
  const san = (cert.subjectAltName ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry.startsWith("DNS:"))
    .map((entry) => entry.slice(4));
  const cn = /(?:^|\n)CN=([^\n]+)/.exec(cert.subject)?.[1]?.trim();
  return { san, cn };
}

/** The inputs whose change imports the certificate again (see {@link customCertificateRules}). */
const IMPORTED_AS = ["app", "hostname", "fullchain", "privateKey"] as const;

/**
 * Whether `news` import nothing new: the same chain and key for the same hostname as the previous
 * inputs, so the platform already holds it.
 */
function alreadyImported(news: Record<string, unknown>, olds: Record<string, unknown>): boolean {
  return IMPORTED_AS.every((key) => typeof news[key] === "string" && news[key] === olds[key]);
}

/**
 * Rules of a custom certificate's PEM, parsed with node:crypto: the key must match the leaf, the
 * hostname must be in the leaf's SAN or CN (wildcards honoured), and a chain about to be imported
 * (a new resource, or a changed chain, key or hostname) must not be expired at `now`. A chain
 * already imported is not refused for expiring since: time passing must not block the stack
 * (preview warns instead). Values unknown at preview, or already refused (`failed`), are skipped.
 */
export function customCertificateRules(
  news: Record<string, unknown>,
  { olds, failed, now }: { olds: Record<string, unknown>; failed: ReadonlySet<string>; now: Date },
): ValidationFailure[] {
  const failures: ValidationFailure[] = [];
  const { fullchain, privateKey, hostname } = news;

  let leaf: X509Certificate | undefined;
  if (typeof fullchain === "string" && !isUnknown(fullchain) && !failed.has("fullchain")) {
    try {
      leaf = parseCertificateChain(fullchain)[0];
    } catch (err) {
      failures.push({ property: "fullchain", reason: `fullchain ${(err as Error).message}` });
    }
  }
  if (leaf && new Date(leaf.validTo).getTime() <= now.getTime() && !alreadyImported(news, olds)) {
    failures.push({
      property: "fullchain",
      reason: `fullchain: the certificate expired on ${new Date(leaf.validTo).toISOString()}; the platform only imports certificates that are not expired`,
    });
  }

  let key: KeyObject | undefined;
  if (typeof privateKey === "string" && !isUnknown(privateKey) && !failed.has("privateKey")) {
    try {
      key = createPrivateKey(privateKey);
    } catch {
      // Never echo the key or the parser's excerpt of it.
      failures.push({
        property: "privateKey",
        reason: "privateKey is not a PEM private key that can be read",
      });
    }
  }
  if (leaf && key && !leaf.checkPrivateKey(key)) {
    failures.push({
      property: "privateKey",
      reason:
        "privateKey does not match the certificate: it must be the key of the first (leaf) certificate of fullchain",
    });
  }

  if (leaf && typeof hostname === "string" && !isUnknown(hostname) && !failed.has("hostname")) {
    const { san, cn } = certificateNames(leaf);
    const names = cn === undefined ? san : [...san, cn];
    if (!names.some((name) => certificateNameCovers(name, hostname))) {
      failures.push({
        property: "hostname",
        reason: `hostname ${hostname} is not covered by the certificate (SAN: ${san.join(", ") || "none"}; CN: ${cn ?? "none"})`,
      });
    }
  }
  return failures;
}
