import * as pulumi from "@pulumi/pulumi";
import * as dynamicDoor from "pulumi-platform";
import * as pluginDoor from "pulumi-platform/plugin";

// Every route the provider sends that changes something: three volume creates (empty, fork,
// restore), an on-demand snapshot, an ACME request, a custom import, a rotation; `size` and
// `retention` drive an extend and a PUT; destroy sends the DELETEs. `door: plugin` takes the
// plugin's classes (same args and outputs).
const config = new pulumi.Config();
const { AcmeCertificate, CustomCertificate, PostgresPasswordRotation, Volume, VolumeSnapshot } =
  config.get("door") === "plugin" ? pluginDoor : dynamicDoor;
const app = "demo-app";

const data = new Volume("data", {
  app,
  name: "uo_data",
  region: "iad",
  sizeGb: config.getNumber("size") ?? 1,
  snapshotRetention: config.getNumber("retention") ?? 5,
});
const snap = new VolumeSnapshot("snap", { app, volumeId: data.volumeId, waitTimeoutSeconds: 120 });
const restored = new Volume("restored", {
  app,
  name: "uo_restored",
  region: "iad",
  snapshotId: snap.snapshotId,
});
const fork = new Volume("fork", { app, name: "uo_fork", region: "iad", sourceVolumeId: data.volumeId });
const acme = new AcmeCertificate("acme", { app, hostname: "a.uo.example.com" });
const custom = new CustomCertificate("custom", {
  app,
  hostname: "c.uo.example.com",
  fullchain: config.require("cert"),
  privateKey: config.requireSecret("key"),
});
const rotation = new PostgresPasswordRotation("rotation", { clusterId: "demo-pg", username: "app_user" });

export const volumeIds = [data.volumeId, restored.volumeId, fork.volumeId];
export const snapshotId = snap.snapshotId;
export const hostnames = [acme.hostname, custom.hostname];
export const password = rotation.password;
