// @ts-check
// The mixed program's baseline: as many no-ops, 40% of them rotating with `generation`.
const pulumi = require("@pulumi/pulumi");

const config = new pulumi.Config();
const n = config.requireNumber("n");
const generation = config.get("generation") || "1";

/** @type {pulumi.dynamic.ResourceProvider} */
const provider = {
  async create(inputs) {
    return { id: inputs.name, outs: inputs };
  },
  async update(_id, _olds, news) {
    return { outs: news };
  },
};

class Noop extends pulumi.dynamic.Resource {
  /** @param {string} name @param {Record<string, unknown>} args */
  constructor(name, args) {
    super(provider, name, args, undefined, "bench", "Noop");
  }
}
const part = Math.floor(n / 5);
for (let i = 0; i < n - 2 * part; i++) new Noop(`v${i}`, { app: "demo-app", name: `v${i}` });
for (let i = 0; i < 2 * part; i++)
  new Noop(`r${i}`, { app: "demo-app", name: `r${i}`, triggers: { generation } });
