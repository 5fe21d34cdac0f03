/**
 * An `AcmeCertificate` and a `CustomCertificate` as a create would give them, for
 * `pulumi-platform/testing`: the hostname record made up as the emulator makes it (its DNS
 * requirements, the platform's import rules for a custom chain), mapped to outputs by the
 * runtime's own mapping.
 * @module
 */
import type { CertificateDetails } from "../../../sdk/schemas/certificate";
import { validateCustomCertificate } from "../../../sdk/simulation/custom-certificate-rules";
import { dnsRequirements } from "../../../sdk/simulation/dns-requirements";
import { daysUntil } from "../../model/lifetime";
import { type MockContext, type Mocker, storedValues } from "../../model/mocking";
import type { acmeCertificateDeclaration, customCertificateDeclaration } from "./declarations";
import { certificateReport } from "./mapping";

/** A hostname record right after the request: nothing validated yet. */
function hostnameRecord(
  app: string,
  hostname: string,
  ctx: MockContext,
  record: Pick<CertificateDetails, "status" | "acme_requested" | "certificates">,
): CertificateDetails {
  return {
    hostname,
    configured: false,
    dns_provider: null,
    rate_limited_until: null,
    validation: {
      dns_configured: false,
      alpn_configured: false,
      http_configured: false,
      ownership_txt_configured: false,
    },
    dns_requirements: dnsRequirements(app, ctx.org, hostname),
    validation_errors: [],
    ...record,
  };
}

/** An ACME request just made: pending validation. */
export const acmeCertificateMock: Mocker<typeof acmeCertificateDeclaration> = (declaration, inputs, ctx) => ({
  id: inputs.hostname,
  outputs: {
    ...storedValues(declaration, inputs),
    app: inputs.app,
    ...certificateReport(
      hostnameRecord(inputs.app, inputs.hostname, ctx, {
        status: "pending_validation",
        acme_requested: true,
        certificates: [],
      }),
    ),
  },
});

/** A custom certificate just imported: pending ownership. */
export const customCertificateMock: Mocker<typeof customCertificateDeclaration> = (
  declaration,
  inputs,
  ctx,
) => {
  // The platform's own import rules (the resource's check has passed already).
  const leaf = validateCustomCertificate(
    inputs.hostname,
    inputs.fullchain,
    inputs.privateKey,
    ctx.now.getTime(),
  );
  const expiresAt = new Date(leaf.validTo).toISOString();
  const details = hostnameRecord(inputs.app, inputs.hostname, ctx, {
    status: "pending_ownership",
    acme_requested: false,
    certificates: [
      {
        source: "custom",
        status: "pending_ownership",
        created_at: ctx.now.toISOString(),
        expires_at: expiresAt,
        issuer: leaf.issuer,
        issued: [],
      },
    ],
  });
  return {
    id: inputs.hostname,
    outputs: {
      ...storedValues(declaration, inputs),
      app: inputs.app,
      ...certificateReport(details),
      expiresAt,
      expiresInDays: daysUntil(expiresAt, ctx.now),
      issuer: leaf.issuer,
    },
  };
};
