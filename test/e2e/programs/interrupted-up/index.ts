import * as pulumi from "@pulumi/pulumi";
import { Volume } from "pulumi-platform";

// `count` (default 15) lets a test deploy a smaller stack first.
const count = new pulumi.Config().getNumber("count") ?? 15;
const volumes = Array.from(
  { length: count },
  (_, i) => new Volume(`vol-${i}`, { app: "demo-app", name: `intr_${i}`, region: "iad", sizeGb: 1 }),
);

export const volumeIds = volumes.map((v) => v.volumeId);
