import * as pulumi from "@pulumi/pulumi";
import { Volume, VolumeSnapshot } from "pulumi-platform";

const config = new pulumi.Config();
const app = config.get("app") ?? "demo-app";
const region = config.get("region") ?? "iad";

// Grow-only extend: raise `sizeGb` and `pulumi up` extends the volume in place. Lowering it is
// rejected at preview ("volumes can only grow"), never planned as a replace that loses data.
// `snapshotRetention` and `autoBackupEnabled` also change in place.
const data = new Volume("data", {
  app,
  name: "data",
  region,
  sizeGb: config.getNumber("sizeGb") ?? 1,
  snapshotRetention: config.getNumber("snapshotRetention") ?? 5,
  autoBackupEnabled: true,
});

// Snapshot, then restore: an on-demand snapshot, and a new volume created from it in the same
// `up` (creation waits until the restore finishes, up to `restoreTimeoutSeconds`).
// Change `snapshotTrigger` to take a new snapshot; the restored volume keeps its data (a restore
// is an event): `pulumi up --replace <its urn>` restores it again from the new one.
const snapshot = new VolumeSnapshot("data-snapshot", {
  app,
  volumeId: data.id,
  triggers: { snapshot: config.get("snapshotTrigger") ?? "1" },
});
const restored = new Volume("restored", {
  app,
  name: "data_restored",
  region,
  snapshotId: snapshot.snapshotId,
  restoreTimeoutSeconds: 300,
});

// Fork: a copy of a live volume, without going through a snapshot.
const fork = new Volume("fork", { app, name: "data_fork", sourceVolumeId: data.id });

export const dataVolume = { id: data.id, sizeGb: data.sizeGb, snapshotRetention: data.snapshotRetention };
export const dataSnapshot = {
  snapshotId: snapshot.snapshotId,
  size: snapshot.size,
  retentionDays: snapshot.retentionDays,
};
export const restoredVolume = { id: restored.id, state: restored.state, sizeGb: restored.sizeGb };
export const forkVolume = { id: fork.id, sizeGb: fork.sizeGb, region: fork.region };
