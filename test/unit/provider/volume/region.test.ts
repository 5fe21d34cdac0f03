import { describe, expect, it } from "vitest";
import { volume } from "../../../../provider/kinds/volume/runtime";
import { regionWarning } from "../../../../provider/model/validation";
import { isKnownRegion, PLATFORM_REGIONS, RETIRED_REGIONS } from "../../../../sdk";

describe("the shared region list", () => {
  it("holds three-letter lowercase codes only, none twice", () => {
    const all = [...PLATFORM_REGIONS, ...RETIRED_REGIONS];
    for (const code of all) expect(code).toMatch(/^[a-z]{3}$/);
    expect(new Set(all).size).toBe(all.length);
  });

  it("knows the current and the retired regions, and no made-up one", () => {
    expect(isKnownRegion("iad")).toBe(true);
    expect(isKnownRegion("sea")).toBe(true);
    expect(isKnownRegion("ida")).toBe(false);
    expect(isKnownRegion("mars")).toBe(false);
  });
});

describe("regionWarning", () => {
  it("says nothing about a current region", () => {
    for (const code of PLATFORM_REGIONS) expect(regionWarning(code)).toBeUndefined();
  });

  it('names the nearest known code of a well-shaped unknown one ("ida": did you mean iad?)', () => {
    expect(regionWarning("ida")).toMatch(
      /^region "ida" is not one of the platform's regions known to this release/,
    );
    expect(regionWarning("ida")).toContain("did you mean iad?");
    expect(regionWarning("lhd")).toContain("did you mean lhr?");
  });

  it("lists the known regions when no code is near", () => {
    const warning = regionWarning("qqq");
    expect(warning).not.toContain("did you mean");
    expect(warning).toContain("ams, arn, bom");
  });

  it("says a retired region may be refused for a new volume", () => {
    expect(regionWarning("sea")).toMatch(/no longer in the platform's list of regions/);
  });

  it("leaves a code of the wrong shape to the check's failure", () => {
    expect(regionWarning("mars")).toBeUndefined();
  });
});

describe("the Volume's check warns about a region only when the program names it anew", () => {
  const base = { app: "demo-app", name: "data" };

  /** What the check prints: through the plugin's sink of the resource, or the dynamic host's stderr. */
  async function warningsOf(olds: Record<string, unknown>, news: Record<string, unknown>, host = false) {
    const printed: string[] = [];
    const original = console.warn;
    console.warn = (text: string) => printed.push(text);
    try {
      const provider = host ? volume : volume.about(async (text) => void printed.push(`warning: ${text}`));
      const result = await provider.check(olds, news);
      // (No credentials are configured here: those failures name no property.)
      expect(result.failures.filter((f) => f.property !== "")).toEqual([]);
    } finally {
      console.warn = original;
    }
    return printed;
  }

  it("on create, under the resource (the plugin's call names it)", async () => {
    expect(await warningsOf({}, { ...base, region: "ida" })).toEqual([
      expect.stringMatching(/^warning: region "ida" .*did you mean iad\?/),
    ]);
  });

  it("not in the dynamic host, whose warnings land under the stack: the program warns under the Volume", async () => {
    expect(await warningsOf({}, { ...base, region: "ida" }, true)).toEqual([]);
  });

  it("not for the region the volume already has (a stack made with it keeps previewing quietly)", async () => {
    expect(await warningsOf({ ...base, region: "ida" }, { ...base, region: "ida" })).toEqual([]);
  });

  it("not for a known region", async () => {
    expect(await warningsOf({}, { ...base, region: "iad" })).toEqual([]);
  });
});
