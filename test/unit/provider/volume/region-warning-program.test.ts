import * as pulumi from "@pulumi/pulumi";
import { afterEach, describe, expect, it, vi } from "vitest";
import { UNKNOWN } from "../../../../provider/model/validation/common";

// The dynamic door's provider host prints a provider's warnings under the stack, so the program
// prints the region warning itself, under the Volume (pulumi.log.warn with the resource), when the
// program names the region anew; the plugin prints it from its check (volume/runtime).

/** What the engine answers at preview: a new volume (no id), or the recorded one. */
type Answer = { id?: string; region?: string };

async function previewWith(answer: Answer, region: pulumi.Input<string>) {
  vi.resetModules();
  const warn = vi.spyOn(pulumi.log, "warn").mockResolvedValue(undefined);
  await pulumi.runtime.setMocks(
    {
      newResource: (args) => ({
        id: answer.id,
        state: { ...args.inputs, region: answer.region ?? UNKNOWN, sizeGb: 3, name: "data" },
      }),
      call: (args) => args.inputs,
    },
    "project",
    "test",
    true,
  );
  const { Volume } = await import("../../../../provider/dynamic");
  const data = new Volume("data", { app: "demo-app", name: "data", region });
  await new Promise<void>((resolve) => data.urn.apply(() => resolve()));
  await pulumi.runtime.disconnect();
  const regionWarnings = warn.mock.calls.filter(([text]) => String(text).includes("platform's regions"));
  return { data, regionWarnings };
}

afterEach(() => vi.restoreAllMocks());

describe("a region this release does not know, in the dynamic door", () => {
  it("a volume to create: warned once, under the Volume", async () => {
    const { data, regionWarnings } = await previewWith({}, "ida");
    expect(regionWarnings).toHaveLength(1);
    expect(regionWarnings[0]?.[0]).toMatch(
      /^region "ida" is not one of the platform's regions .*did you mean iad\?/,
    );
    expect(regionWarnings[0]?.[1]).toBe(data);
  });

  it("a region given as a secret or an output is read once known", async () => {
    const { regionWarnings } = await previewWith({}, pulumi.secret("ida"));
    expect(regionWarnings).toHaveLength(1);
  });

  it("a volume recorded in that region: nothing (the up that made it recorded the region)", async () => {
    const { regionWarnings } = await previewWith({ id: "vol_1", region: "ida" }, "ida");
    expect(regionWarnings).toEqual([]);
  });

  it("a volume updated in place (id known, outputs unknown at preview): nothing, the region is unchanged", async () => {
    const { regionWarnings } = await previewWith({ id: "vol_1" }, "ida");
    expect(regionWarnings).toEqual([]);
  });

  it("a recorded region other than the program's: warned", async () => {
    const { regionWarnings } = await previewWith({ id: "vol_1", region: "iad" }, "ida");
    expect(regionWarnings).toHaveLength(1);
  });

  it("a known region: nothing", async () => {
    const { regionWarnings } = await previewWith({}, "iad");
    expect(regionWarnings).toEqual([]);
  });
});
