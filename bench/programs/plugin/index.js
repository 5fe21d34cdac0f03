// @ts-check
// N Volumes through the plugin door (pulumi-resource-platform): the same resource as ../volume.
const pulumi = require("@pulumi/pulumi");
const { Volume } = require("pulumi-platform/plugin");

const n = new pulumi.Config().requireNumber("n");
for (let i = 0; i < n; i++) new Volume(`v${i}`, { app: "demo-app", name: `v${i}`, region: "ord", sizeGb: 1 });
