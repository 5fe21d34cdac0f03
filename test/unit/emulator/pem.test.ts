import { describe, expect, test } from "vitest";
import { validateCustomCertificate } from "../../../sdk/simulation/custom-certificate-rules";
import { days, makeCert, otherKey } from "../../support/certs";

describe("validateCustomCertificate", () => {
  test("accepts a chain of leaf and intermediate and reports the issuer and expiry", async () => {
    const leaf = await makeCert("a.example.com");
    const inter = await makeCert("Intermediate CA");
    const result = validateCustomCertificate(
      "a.example.com",
      `${leaf.cert}\n${inter.cert}`,
      leaf.key,
      Date.now(),
    );
    expect(result.issuer).toBe("a.example.com");
    expect(result.validTo).toBeGreaterThan(Date.now());
  });

  test("rejects a certificate that is not valid yet", async () => {
    const future = await makeCert("a.example.com", ["a.example.com"], {
      from: Date.now() + days(2),
      to: Date.now() + days(30),
    });
    expect(() => validateCustomCertificate("a.example.com", future.cert, future.key, Date.now())).toThrow(
      /not valid yet/,
    );
  });

  test("expiry is judged at the given (virtual) time", async () => {
    const cert = await makeCert("a.example.com");
    expect(() =>
      validateCustomCertificate("a.example.com", cert.cert, cert.key, Date.now() + days(365)),
    ).toThrow(/expired/);
  });

  test("a wildcard hostname needs the wildcard itself in the certificate", async () => {
    const plain = await makeCert("a.example.com");
    expect(() => validateCustomCertificate("*.example.com", plain.cert, plain.key, Date.now())).toThrow(
      /not covered/,
    );
  });

  test("rejects a key of another pair", async () => {
    const cert = await makeCert("a.example.com");
    expect(() => validateCustomCertificate("a.example.com", cert.cert, otherKey(), Date.now())).toThrow(
      /does not match/,
    );
  });
});
