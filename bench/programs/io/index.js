// @ts-check
// Control: the least a Volume provider can do. Like `fat` (same registered properties, same
// outputs, serialized provider padded to the Volume's length), but create, read and delete each
// make one request to the emulator with Node's built-in fetch and map the answer without
// validating it (bench-io.js). Like the Volume's stub, the serialized provider only requires its
// code: the bench installs bench-io.js as the program's own package `bench-io`, next to the
// emulator's address (target.json). Volume/io is what our code adds to any real resource's I/O.
const pulumi = require("@pulumi/pulumi");
const { declareVolumeShaped } = require("../volume-shaped");

const config = new pulumi.Config();
const n = config.requireNumber("n");
const pad = "#".repeat(config.getNumber("padChars") || 0);

/** @type {pulumi.dynamic.ResourceProvider} */
const provider = {
  async create(inputs) {
    if (pad.length < 0) throw new Error("unreachable: pad is captured into the serialized provider");
    return require("bench-io").create(inputs);
  },
  async read(id, props) {
    return require("bench-io").read(id, props);
  },
  async delete(id, props) {
    return require("bench-io").remove(id, props);
  },
};

declareVolumeShaped(provider, "Io", n);
