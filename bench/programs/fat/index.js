// @ts-check
// Control: a no-op with a Volume's outputs (same names, same kind of values), the same output
// properties declared by the resource and a serialized provider padded to the Volume's length
// (`padChars`), so its state is as large as a Volume's: Volume/fat is our code's own cost.
// `sleepMs` as in the no-op.
const pulumi = require("@pulumi/pulumi");
const { declareVolumeShaped } = require("../volume-shaped");

const config = new pulumi.Config();
const n = config.requireNumber("n");
const pad = "#".repeat(config.getNumber("padChars") || 0);
const sleepMs = config.getNumber("sleepMs") || 0;
const pause = () => (sleepMs > 0 ? new Promise((resolve) => setTimeout(resolve, sleepMs)) : undefined);

// Without `sleepMs` only `create`, its outputs written inline: the serialized provider is then
// about as long as the Volume's (and padded to its length when shorter). The serialized provider
// carries the function's text, hence the compact lines.
// biome-ignore format: the serialized provider's length
const plain = {
  /** @param {any} inputs */
  async create(inputs) {
    if (pad.length < 0) throw new Error("unreachable: pad is captured into the serialized provider");
    return {
      id: `vol_${inputs.name}`,
      outs: {
        app: inputs.app, programInputs: ["name", "region", "sizeGb"], volumeId: `vol_${inputs.name}`,
        name: inputs.name, state: "created", sizeGb: inputs.sizeGb, region: inputs.region, zone: "a1b2",
        encrypted: true, attachedMachineId: null, attachedAllocId: null,
        createdAt: new Date().toISOString(), blocks: 0, blockSize: 4096, blocksFree: 0, blocksAvail: 0,
        fstype: "ext4", snapshotRetention: 5, autoBackupEnabled: true, hostDedicationKey: "",
        needsRestart: false,
      },
    };
  },
};
// With `sleepMs` every operation waits as one request would (a longer serialized provider).
const waiting = {
  /** @param {any} inputs */
  async create(inputs) {
    await pause();
    return plain.create(inputs);
  },
  /** @param {string} id @param {any} props */
  async read(id, props) {
    await pause();
    return { id, props };
  },
  async delete() {
    await pause();
  },
};
/** @type {pulumi.dynamic.ResourceProvider} */
const provider = sleepMs > 0 ? waiting : plain;

declareVolumeShaped(provider, "Fat", n);
