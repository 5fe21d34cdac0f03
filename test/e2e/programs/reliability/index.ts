import * as pulumi from "@pulumi/pulumi";
import * as dynamicDoor from "pulumi-platform";
import * as pluginDoor from "pulumi-platform/plugin";

// The test passes three custom chains and keys (cert0..2, key0..2) through stack config, and the
// door (`door: plugin`: the provider plugin's classes, else the dynamic ones; same args, outputs).
const config = new pulumi.Config();
const { AcmeCertificate, CustomCertificate, PostgresPasswordRotation, Volume, VolumeSnapshot } =
  config.get("door") === "plugin" ? pluginDoor : dynamicDoor;
const app = "demo-app";

const volumes = Array.from(
  { length: 12 },
  (_, i) =>
    new Volume(`vol-${i}`, {
      app,
      name: `rel_${i}`,
      region: "iad",
      sizeGb: 1 + (i % 3),
      snapshotRetention: 5 + i,
    }),
);
const fork = new Volume("fork", {
  app,
  name: "rel_fork",
  region: "iad",
  sourceVolumeId: volumes[0]?.volumeId,
});
const snapshots = [0, 1].map(
  (i) =>
    new VolumeSnapshot(`snap-${i}`, { app, volumeId: volumes[i]?.volumeId ?? "", waitTimeoutSeconds: 120 }),
);
const acme = ["a", "b", "c", "d", "*.wild"].map(
  (h) => new AcmeCertificate(`acme-${h.replace("*.", "")}`, { app, hostname: `${h}.rel.example.com` }),
);
const custom = [0, 1, 2].map(
  (i) =>
    new CustomCertificate(`custom-${i}`, {
      app,
      hostname: `c${i}.rel.example.com`,
      fullchain: config.require(`cert${i}`),
      privateKey: config.requireSecret(`key${i}`),
    }),
);
const rotation = new PostgresPasswordRotation("rotation", { clusterId: "demo-pg", username: "app_user" });

export const volumeIds = [...volumes, fork].map((v) => v.volumeId);
export const snapshotIds = snapshots.map((s) => s.snapshotId);
export const hostnames = [...acme, ...custom].map((c) => c.hostname);
export const rotatedAt = rotation.rotatedAt;
