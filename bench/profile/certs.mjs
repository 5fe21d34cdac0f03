// Self-signed EC certificates for the mixed engine benchmark: one per hostname
// `${prefix}${i}.bench.example.com`, valid 90 days from yesterday.
import selfsigned from "selfsigned";

const DAY = 24 * 60 * 60 * 1000;

/** `count` certificates and keys ({ cert, key } PEM strings). */
export async function makeCerts(count, prefix) {
  const out = [];
  for (let i = 0; i < count; i++) {
    const host = `${prefix}${i}.bench.example.com`;
    const pems = await selfsigned.generate([{ name: "commonName", value: host }], {
      keyType: "ec",
      algorithm: "sha256",
      notBeforeDate: new Date(Date.now() - DAY),
      notAfterDate: new Date(Date.now() + 90 * DAY),
      extensions: [{ name: "subjectAltName", altNames: [{ type: 2, value: host }] }],
    });
    out.push({ cert: pems.cert, key: pems.private });
  }
  return out;
}
