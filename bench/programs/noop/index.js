// @ts-check
// The baseline: a dynamic provider whose create returns its inputs. With `sleepMs` (the
// bench's latency rows) create, read and delete each wait that long, as one request would; the
// value is captured into the serialized provider.
const pulumi = require("@pulumi/pulumi");

const config = new pulumi.Config();
const n = config.requireNumber("n");
const sleepMs = config.getNumber("sleepMs") || 0;
const pause = () => (sleepMs > 0 ? new Promise((resolve) => setTimeout(resolve, sleepMs)) : undefined);

/** @type {pulumi.dynamic.ResourceProvider} */
const provider = {
  async create(inputs) {
    await pause();
    return { id: inputs.name, outs: inputs };
  },
  async read(id, props) {
    await pause();
    return { id, props };
  },
  async delete() {
    await pause();
  },
};

class Noop extends pulumi.dynamic.Resource {
  /** @param {string} name @param {Record<string, unknown>} args */
  constructor(name, args) {
    super(provider, name, args, undefined, "bench", "Noop");
  }
}
for (let i = 0; i < n; i++) new Noop(`v${i}`, { app: "demo-app", name: `v${i}`, region: "ord", sizeGb: 1 });
