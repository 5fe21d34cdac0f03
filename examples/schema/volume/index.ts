import { Volume } from "pulumi-platform";

const data = new Volume("data", { app: "demo-app", name: "data", region: "iad", sizeGb: 10 });

export const volumeId = data.volumeId;
