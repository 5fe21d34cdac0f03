import * as pulumi from "@pulumi/pulumi";
import { AcmeCertificate, CustomCertificate } from "pulumi-platform";

const config = new pulumi.Config();
const app = config.get("app") ?? "demo-app";
const domain = config.get("domain") ?? "certs.example.com";

// Your certificate chain (PEM, leaf first) and its private key, from config:
//   pulumi config set fullchain -- "$(cat fullchain.pem)"
//   pulumi config set --secret privateKey -- "$(cat privkey.pem)"
// The example expects a certificate whose SAN covers www.<domain> and api.<domain>.
const fullchain = config.require("fullchain");
const privateKey = config.requireSecret("privateKey"); // stays a secret in state

// Wildcard ACME: the platform obtains *.<domain> once the ACME challenge CNAME exists.
const wildcard = new AcmeCertificate("wildcard", { app, hostname: `*.${domain}` });

// Custom only: the platform serves your certificate once the ownership TXT record exists.
// A new chain or key (certificate rotation) is re-imported in place.
const api = new CustomCertificate("api", { app, hostname: `api.${domain}`, fullchain, privateKey });

// Both kinds on one hostname: the custom certificate is served first, ACME is the fallback.
// Destroying one removes only its kind; destroying the last one also removes the hostname.
const wwwAcme = new AcmeCertificate("www-acme", { app, hostname: `www.${domain}` });
const wwwCustom = new CustomCertificate("www-custom", {
  app,
  hostname: `www.${domain}`,
  fullchain,
  privateKey,
});

// What each certificate still needs in DNS; feed these to your DNS provider's resources.
export const wildcardDns = wildcard.dnsRequirements;
export const apiOwnershipRecord = api.ownershipRecord;
export const wwwDns = wwwAcme.dnsRequirements;
export const statuses = {
  wildcard: wildcard.status,
  api: api.status,
  wwwAcme: wwwAcme.status,
  wwwCustom: wwwCustom.status,
};
export const apiCertificate = { expiresAt: api.expiresAt, issuer: api.issuer };
