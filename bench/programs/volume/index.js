// @ts-check
// N Volumes: what the bench measures.
const pulumi = require("@pulumi/pulumi");
const { Volume } = require("pulumi-platform");

const n = new pulumi.Config().requireNumber("n");
for (let i = 0; i < n; i++) new Volume(`v${i}`, { app: "demo-app", name: `v${i}`, region: "ord", sizeGb: 1 });
