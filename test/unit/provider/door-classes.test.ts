import { describe, expect, it } from "vitest";
import { RESOURCE_KEYS, registry } from "../../../provider/kinds/registry";
import { SnapshotComponent } from "../../../provider/kinds/volume-snapshot/component";
import * as plugin from "../../../provider/plugin";
import { pluginClasses } from "../../../provider/plugin/classes";
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
