import { Volume, VolumeSnapshot } from "pulumi-platform";

const data = new Volume("data", { app: "demo-app", name: "data", region: "iad" });
const snapshot = new VolumeSnapshot("data-snapshot", { app: "demo-app", volumeId: data.volumeId });

export const snapshotId = snapshot.snapshotId;
