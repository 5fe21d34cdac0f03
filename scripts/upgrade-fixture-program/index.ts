import * as pulumi from "@pulumi/pulumi";
import {
  AcmeCertificate,
  CustomCertificate,
  PostgresPasswordRotation,
  Volume,
  VolumeSnapshot,
} from "pulumi-platform";

// Recorded by every release (`npm run record-upgrade-fixture`) and run by the next ones in the
// upgrade e2e: only inputs every release accepts. The custom chain and key come from config.
const config = new pulumi.Config();
const app = "demo-app";

// Every input a volume can start with, and one with the defaults.
const data = new Volume("data", {
  app,
  name: "data",
  region: "iad",
  sizeGb: 3,
  encrypted: true,
  fstype: "ext4",
  autoBackupEnabled: true,
  snapshotRetention: config.getNumber("retention") ?? 7,
  requireUniqueZone: false,
  compute: { cpuKind: "shared", cpus: 1, memoryMb: 256 },
});
const plain = new Volume("plain", { app, name: "plain", region: "iad" });

// A snapshot, a restore from it and a fork.
const snapshot = new VolumeSnapshot("data-snapshot", {
  app,
  volumeId: data.volumeId,
  triggers: { generation: "1" },
});
const restored = new Volume("restored", {
  app,
  name: "restored",
  region: "iad",
  snapshotId: snapshot.snapshotId,
});
const fork = new Volume("fork", { app, name: "fork", region: "iad", sourceVolumeId: plain.volumeId });

// Certificates: ACME, a wildcard, a custom one, and both kinds on one hostname.
const www = new AcmeCertificate("www", { app, hostname: "www.example.com" });
const wildcard = new AcmeCertificate("wildcard", { app, hostname: "*.apps.example.com" });
const api = new CustomCertificate("api", {
  app,
  hostname: "api.example.com",
  fullchain: config.require("apiFullchain"),
  privateKey: config.requireSecret("apiPrivateKey"),
});
const shopAcme = new AcmeCertificate("shop-acme", { app, hostname: "shop.example.com" });
const shopCustom = new CustomCertificate("shop-custom", {
  app,
  hostname: "shop.example.com",
  fullchain: config.require("shopFullchain"),
  privateKey: config.requireSecret("shopPrivateKey"),
});

// A password rotation with a trigger and killSessions.
const rotation = new PostgresPasswordRotation("app-user", {
  clusterId: "demo-pg",
  username: "app_user",
  killSessions: true,
  triggers: { rotation: "1" },
});

export const volumeIds = [data, plain, restored, fork].map((v) => v.volumeId);
export const snapshotId = snapshot.snapshotId;
export const hostnames = [www, wildcard, api, shopAcme, shopCustom].map((c) => c.hostname);
export const password = rotation.password;
