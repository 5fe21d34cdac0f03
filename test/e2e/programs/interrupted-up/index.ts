import { Volume } from "pulumi-platform";

const volumes = Array.from(
  { length: 15 },
  (_, i) => new Volume(`vol-${i}`, { app: "demo-app", name: `intr_${i}`, region: "iad", sizeGb: 1 }),
);

export const volumeIds = volumes.map((v) => v.volumeId);
