// @ts-check
// The native control: N resources of the Go provider in bench/native (pulumi-go-provider), which
// makes the same requests as the `io` control. No generated SDK: the program registers the type
// token; the bench puts the built plugin on the CLI's PATH and sets `platformnative:apiUrl` and
// `platformnative:apiToken`.
const pulumi = require("@pulumi/pulumi");

class NativeVolume extends pulumi.CustomResource {
  /** @param {string} name @param {Record<string, unknown>} args */
  constructor(name, args) {
    super("platformnative:index:Volume", name, args);
  }
}

const n = new pulumi.Config().requireNumber("n");
for (let i = 0; i < n; i++)
  new NativeVolume(`v${i}`, { app: "demo-app", name: `v${i}`, region: "ord", sizeGb: 1 });
