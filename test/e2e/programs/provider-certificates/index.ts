import * as pulumi from "@pulumi/pulumi";
import { AcmeCertificate, CustomCertificate } from "pulumi-platform";

// The PEM chain and key come from stack config (the key as a secret) so the test can rotate them.
const config = new pulumi.Config();
const app = "demo-app";
const hostname = "www.example.com";

// Both kinds on one hostname: the custom certificate is primary, ACME the fallback.
const acme = new AcmeCertificate("www-acme", { app, hostname });
const custom = new CustomCertificate("www-custom", {
  app,
  hostname,
  fullchain: config.require("fullchain"),
  privateKey: config.requireSecret("privateKey"),
});
const wildcard = new AcmeCertificate("wildcard-acme", { app, hostname: "*.apps.example.com" });

export const acmeStatus = acme.status;
export const acmeRequirements = acme.dnsRequirements;
export const customStatus = custom.status;
export const ownershipRecord = custom.ownershipRecord;
export const expiresAt = custom.expiresAt;
export const issuer = custom.issuer;
export const wildcardHostname = wildcard.hostname;
export const wildcardChallenge = wildcard.acmeChallengeRecord;
