import * as pulumi from "@pulumi/pulumi";
import { afterEach, describe, expect, it } from "vitest";
import { pluginTypeToken, RESOURCE_KEYS, registry } from "../../../provider/kinds/registry";
import { SnapshotComponent } from "../../../provider/kinds/volume-snapshot/component";
import * as plugin from "../../../provider/plugin";
import { pluginClasses } from "../../../provider/plugin/classes";
import { packageSchema } from "../../../provider/plugin/schema";
import * as root from "../../../provider/program";
import { dynamicClasses } from "../../../provider/program/classes";
import { KindResource } from "../../../provider/registration/kind-resource";

// Both doors serve every kind of the registry, each under the class name a program constructs,
// and export it.
describe("the doors' classes", () => {
  for (const [door, classes, exported] of [
    ["dynamic", dynamicClasses, root],
    ["plugin", pluginClasses, plugin],
  ] as const) {
    it(`the ${door} door has a class of every kind, exported under its name`, () => {
      expect(Object.keys(classes).sort()).toEqual([...RESOURCE_KEYS].sort());
      for (const key of RESOURCE_KEYS) {
        const row = registry[key];
        const cls = classes[key];
        const name = "component" in row ? row.component : row.declaration.type;
        expect(cls.name).toBe(name);
        expect((exported as Record<string, unknown>)[name]).toBe(cls);
        const base = "component" in row ? SnapshotComponent : KindResource;
        expect(cls.prototype).toBeInstanceOf(base);
      }
    });
  }
});

// A program in TypeScript reads the same outputs as one in another language reads from the schema:
// each class (the snapshot's component included) has an output of every property the plugin's
// schema gives its kind, set once constructed.
describe("the doors' classes have every output of the schema", () => {
  const schema = packageSchema().resources;
  // A component's last registrations (its outputs) end before the next kind's mocks start,
  // whatever the registry's order.
  afterEach(() => pulumi.runtime.disconnect());
  for (const [door, classes] of [
    ["dynamic", dynamicClasses],
    ["plugin", pluginClasses],
  ] as const) {
    it.each(RESOURCE_KEYS)(`the ${door} door's %s`, async (key) => {
      await pulumi.runtime.setMocks(
        { newResource: (args) => ({ id: `${args.name}_id`, state: {} }), call: (args) => args.inputs },
        "project",
        "test",
        false,
      );
      const properties = Object.keys(schema[pluginTypeToken(registry[key])]?.properties ?? {});
      expect(properties).toEqual(expect.arrayContaining(Object.keys(registry[key].declaration.outputs)));
      const Class = classes[key] as unknown as new (name: string, args: object) => Record<string, unknown>;
      const resource = new Class("r", {});
      const missing = properties.filter((name) => !pulumi.Output.isInstance(resource[name]));
      expect(missing).toEqual([]);
    });
  }
});
