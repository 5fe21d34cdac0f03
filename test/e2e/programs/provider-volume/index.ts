import * as pulumi from "@pulumi/pulumi";
import { Volume, VolumeSnapshot } from "pulumi-platform";

// Inputs come from stack config so the test can change them between runs.
const config = new pulumi.Config();
const app = "demo-app";

const data = new Volume("data", {
  app,
  name: "data",
  region: "ord",
  // "omit" leaves sizeGb out of the program, which must not plan a change.
  sizeGb: config.get("sizeGb") === "omit" ? undefined : (config.getNumber("sizeGb") ?? 10),
  snapshotRetention: config.getNumber("retention") ?? 5,
});

const snapshot = new VolumeSnapshot("data-snap", {
  app,
  volumeId: data.volumeId,
  triggers: { generation: config.get("snapshotGeneration") ?? "1" },
  waitTimeoutSeconds: 60,
});

const restored = new Volume("restored", {
  app,
  name: "restored",
  region: "ord",
  snapshotId: snapshot.snapshotId,
  restoreTimeoutSeconds: 60,
});

export const dataId = data.volumeId;
export const dataSize = data.sizeGb;
export const dataRetention = data.snapshotRetention;
export const snapshotId = snapshot.snapshotId;
export const snapshotDigest = snapshot.digest;
export const restoredId = restored.volumeId;
export const restoredState = restored.state;
export const restoredFrom = restored.snapshotId;
