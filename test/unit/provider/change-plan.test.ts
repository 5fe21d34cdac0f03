import { describe, expect, it } from "vitest";
import { registry } from "../../../provider/kinds/registry";
import { planChanges } from "../../../provider/model/change-plan";
import { input } from "../../../provider/model/declaration";
import { optionalString } from "../../../provider/model/validation/fields";

// Each input's effect is decided once: its tag, or for a `special` input its own rule, which only a
// `special` input may have (the types say so; `npm run typecheck` fails if these lines compile).
describe("an input's change rule, decided once", () => {
  it("a special input must state its rule, and no other input may", () => {
    // @ts-expect-error: a `special` input without its `decide`
    const missing = input(optionalString("x", "x"), { change: "special", output: "stored" });
    const overruled = input(optionalString("x", "x"), {
      change: "replace",
      output: "stored",
      // @ts-expect-error: a tagged input cannot be overruled by a rule of the kind's own
      decide: () => "update" as const,
    });
    expect([missing.change, overruled.change]).toEqual(["special", "replace"]);
  });

  it("every special input of every kind has its rule, and every rule is a special input's", () => {
    for (const row of Object.values(registry)) {
      for (const [name, declared] of Object.entries(row.declaration.inputs)) {
        expect(typeof declared.decide === "function", `${row.declaration.type}.${name}`).toBe(
          declared.change === "special",
        );
      }
    }
  });

  it("the program's replaceOnChanges is applied last, over a special input's own answer", () => {
    const volume = registry.volume.declaration;
    const olds = { app: "a", name: "data", sizeGb: 10, snapshotId: "vs_1" };
    const moved = { ...olds, snapshotId: "vs_2" };
    expect(planChanges(volume, { id: "vol_1", olds, news: moved }).properties).toEqual({
      snapshotId: "warn",
    });
    const asked = { ...moved, __replaceOnChanges: ["snapshotId"] };
    expect(planChanges(volume, { id: "vol_1", olds, news: asked }).replaces).toEqual(["snapshotId"]);
  });

  it("the rotation's triggers: a replace with one user, an update when rotations alternate", () => {
    const rotation = registry.postgresPasswordRotation.declaration;
    const olds = { clusterId: "c1", username: "app", triggers: { v: "1" } };
    const news = { ...olds, triggers: { v: "2" } };
    expect(planChanges(rotation, { id: "r", olds, news }).properties).toEqual({ triggers: "replace" });
    const alternating = { ...news, alternateUsername: "app_b" };
    expect(planChanges(rotation, { id: "r", olds, news: alternating }).properties).toEqual({
      triggers: "update",
      alternateUsername: "record",
    });
  });
});
