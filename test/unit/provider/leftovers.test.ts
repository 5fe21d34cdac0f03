import { describe, expect, it } from "vitest";
import { leftoverWarning } from "../../../provider/runtime/leftovers";
import type { Volume } from "../../../sdk";
import { volume as wireVolume } from "../sdk/helpers";

/** A parsed volume (the wire body the sdk tests use, which parses to itself). */
const volume = (id: string, over: Partial<Volume> = {}): Volume =>
  wireVolume({ id, region: "iad", created_at: "2026-11-23T08:00:00Z", ...over }) as unknown as Volume;

describe("the warning about a rerun's leftovers", () => {
  it("names the volumes and the command that finds and deletes them", () => {
    const warning = leftoverWarning("demo-app", volume("vol_new"), [volume("vol_old")]);
    expect(warning).toMatch(
      /^volume "data" \(vol_new\) was created while app demo-app already had 1 unattached volume/,
    );
    expect(warning).toMatch(/vol_old, created 2026-11-23T08:00:00Z/);
    expect(warning).toMatch(/npx pulumi-platform recover --sweep/);
  });
  it("says nothing without suspects", () => {
    expect(leftoverWarning("demo-app", volume("vol_new"), [])).toBeUndefined();
  });
});
