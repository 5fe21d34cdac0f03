import selfsigned from "selfsigned";

const DAY = 24 * 60 * 60 * 1000;

/** A self-signed EC certificate and key; CN and DNS SANs as given. */
export async function makeCert(
  cn: string,
  sans: string[] = [cn],
  validity: { from?: number; to?: number } = {},
): Promise<{ cert: string; key: string }> {
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

export const DAYS = (n: number) => n * DAY;
