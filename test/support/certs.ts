/** Test certificates, generated at run time so none expire in the repository. */
import { generateKeyPairSync } from "node:crypto";
import selfsigned from "selfsigned";

const DAY = 24 * 60 * 60 * 1000;

/** `n` days in milliseconds. */
export const days = (n: number) => n * DAY;

/** A PEM certificate and its private key. */
export interface TestCert {
  cert: string;
  key: string;
}

/** A self-signed EC certificate and key; CN and DNS SANs as given (no SAN extension when empty). */
export async function makeCert(
  cn: string,
  sans: string[] = [cn],
  validity: { from?: number; to?: number } = {},
): Promise<TestCert> {
  const pems = await selfsigned.generate([{ name: "commonName", value: cn }], {
    keyType: "ec",
    algorithm: "sha256",
    notBeforeDate: new Date(validity.from ?? Date.now() - DAY),
    notAfterDate: new Date(validity.to ?? Date.now() + 90 * DAY),
    extensions:
      sans.length > 0
        ? [{ name: "subjectAltName", altNames: sans.map((value) => ({ type: 2, value })) }]
        : [],
  });
  return { cert: pems.cert, key: pems.private };
}

/** A PEM private key that belongs to no certificate. */
export function otherKey(): string {
  return generateKeyPairSync("ec", { namedCurve: "P-256" })
    .privateKey.export({ type: "pkcs8", format: "pem" })
    .toString();
}
