import * as pulumi from "@pulumi/pulumi";
import {
  AcmeCertificate,
  CustomCertificate,
  PostgresPasswordRotation,
  Volume,
  VolumeSnapshot,
} from "pulumi-platform";
import { selfSignedChain } from "./self-signed";

// Credentials come from the stack config `platform:apiUrl` and secret `platform:apiToken`
// (or PLATFORM_API_URL / PLATFORM_API_TOKEN); everything else has a default that fits the
// emulator's seed (app demo-app, Postgres cluster demo-pg with user app_user).
const config = new pulumi.Config();
const app = config.get("app") ?? "demo-app";
const region = config.get("region") ?? "iad";
const sizeGb = config.getNumber("sizeGb") ?? 3;
const domain = config.get("domain") ?? "demo.example.com";

// A volume; raise `sizeGb` to grow it in place (volumes never shrink).
const data = new Volume("data", { app, name: "data", region, sizeGb, snapshotRetention: 7 });

// An on-demand snapshot of it, and a second volume restored from that snapshot, in one `up`.
const snapshot = new VolumeSnapshot("data-snapshot", { app, volumeId: data.id });
const restored = new Volume("restored", {
  app,
  name: "data_restored",
  region,
  snapshotId: snapshot.snapshotId,
});

// An ACME certificate for a wildcard hostname: active once its DNS records exist.
const wildcard = new AcmeCertificate("wildcard", { app, hostname: `*.${domain}` });

// A custom certificate for another hostname. Pass your own chain through config
// (`customFullchain`, and `customPrivateKey` as a secret); without one, a throwaway
// self-signed chain is generated on the fly, and each `up` then rotates it.
const apiHostname = `api.${domain}`;
const givenChain = config.get("customFullchain");
const generated = givenChain ? undefined : selfSignedChain(apiHostname);
const custom = new CustomCertificate("api", {
  app,
  hostname: apiHostname,
  fullchain: givenChain ?? pulumi.output(generated!).apply((c) => c.fullchain),
  privateKey: givenChain
    ? config.requireSecret("customPrivateKey")
    : pulumi.secret(pulumi.output(generated!).apply((c) => c.privateKey)),
});

// A new password for a Postgres user; change `rotation` to rotate again.
const rotation = new PostgresPasswordRotation("app-user-password", {
  clusterId: config.get("postgresCluster") ?? "demo-pg",
  username: config.get("postgresUser") ?? "app_user",
  triggers: { rotation: config.get("rotation") ?? "initial" },
});

export const dataVolume = {
  id: data.id,
  sizeGb: data.sizeGb,
  zone: data.zone,
  attachedMachineId: data.attachedMachineId,
  needsRestart: data.needsRestart,
};
export const snapshotId = snapshot.snapshotId;
export const restoredVolume = { id: restored.id, state: restored.state, sizeGb: restored.sizeGb };

// The DNS records each certificate needs, ready to hand to a DNS provider: the ACME challenge
// CNAME (wildcards are validated through DNS only) or the ownership TXT record, plus a CNAME that
// points the hostname at the app.
export const wildcardCertificate = {
  hostname: wildcard.hostname,
  status: wildcard.status,
  dnsRecords: pulumi
    .all([wildcard.acmeChallengeRecord, wildcard.dnsRequirements])
    .apply(([challenge, req]) => [challenge, { type: "CNAME", name: `*.${domain}`, value: req.cname }]),
};
export const apiCertificate = {
  hostname: custom.hostname,
  status: custom.status,
  expiresAt: custom.expiresAt,
  issuer: custom.issuer,
  dnsRecords: pulumi
    .all([custom.ownershipRecord, custom.dnsRequirements])
    .apply(([ownership, req]) => [ownership, { type: "CNAME", name: apiHostname, value: req.cname }]),
};
export const postgres = {
  username: rotation.username,
  password: rotation.password,
  rotatedAt: rotation.rotatedAt,
};
