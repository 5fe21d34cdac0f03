import { generate } from "selfsigned";

/** A certificate chain (leaf first, then its CA) and the leaf's private key, all PEM. */
export interface CertificateChain {
  fullchain: string;
  privateKey: string;
}

const DAY_MS = 86_400_000;

/**
 * Generates a throwaway CA and a leaf certificate for `hostname` (and `otherNames`, all in the
 * SAN) signed by it: enough for the platform to import (not expired, key matches, hostname in
 * the SAN), never trusted by browsers. Use a real chain from your CA in production.
 */
export async function selfSignedChain(hostname: string, ...otherNames: string[]): Promise<CertificateChain> {
  const notBeforeDate = new Date(Date.now() - DAY_MS);
  const ca = await generate([{ name: "commonName", value: "pulumi-platform quickstart CA" }], {
    keyType: "ec",
    algorithm: "sha256",
    notBeforeDate,
    notAfterDate: new Date(Date.now() + 365 * DAY_MS),
    extensions: [
      { name: "basicConstraints", cA: true, critical: true },
      { name: "keyUsage", keyCertSign: true, cRLSign: true, critical: true },
    ],
  });
  const leaf = await generate([{ name: "commonName", value: hostname }], {
    keyType: "ec",
    algorithm: "sha256",
    notBeforeDate,
    notAfterDate: new Date(Date.now() + 90 * DAY_MS),
    ca: { key: ca.private, cert: ca.cert },
    extensions: [
      { name: "basicConstraints", cA: false },
      { name: "keyUsage", digitalSignature: true, critical: true },
      { name: "extKeyUsage", serverAuth: true },
      {
        name: "subjectAltName",
        altNames: [hostname, ...otherNames].map((value) => ({ type: 2 as const, value })),
      },
    ],
  });
  return { fullchain: `${leaf.cert.trim()}\n${ca.cert.trim()}\n`, privateKey: leaf.private };
}
