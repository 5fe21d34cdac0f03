import * as pulumi from "@pulumi/pulumi";

// A trivial dynamic provider: the resource stores a message; changing it is an in-place update.
const provider: pulumi.dynamic.ResourceProvider = {
  async create(inputs) {
    return { id: `note-${inputs.message.length}`, outs: { message: inputs.message, updates: 0 } };
  },
  async diff(_id, olds, news) {
    return { changes: olds.message !== news.message, replaces: [] };
  },
  async update(_id, olds, news) {
    return { outs: { message: news.message, updates: olds.updates + 1 } };
  },
  async read(id, props) {
    return { id, props };
  },
  async delete() {},
};

class Note extends pulumi.dynamic.Resource {
  declare public readonly message: pulumi.Output<string>;
  declare public readonly updates: pulumi.Output<number>;
  constructor(name: string, message: pulumi.Input<string>) {
    super(provider, name, { message, updates: undefined }, {}, "smoke", "Note");
  }
}

const config = new pulumi.Config();
const note = new Note("note", config.get("message") ?? "hello");

export const message = note.message;
export const updates = note.updates;
export const nodeVersion = process.version;
