import { describe, expect, it } from "vitest";
import { lateLeftoverWarning, leftoverWarning, takeOverWarning } from "../../../provider/runtime/leftovers";
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

describe("a volume this run's own create may have made is never another run's leftover", () => {
  const sentAt = Date.parse("2026-11-23T07:59:59Z");
  const attempt = { name: "data", region: "iad", sentAt, madeFrom: sentAt - 2_000 };
  it("the late look names it as what this run's untrusted create may have made", () => {
    const warning = lateLeftoverWarning("demo-app", [volume("vol_first")], [attempt]);
    expect(warning).toMatch(
      /^this run's create of volume\(s\) "data" in app demo-app got an answer it could not trust/,
    );
    expect(warning).toMatch(/vol_first, created 2026-11-23T08:00:00Z/);
    expect(warning).not.toMatch(/did not make|killed/);
  });
  it("another run's volume, made before this run's attempt, is still named as such", () => {
    const at = Date.parse("2026-11-23T09:00:00Z");
    const later = { ...attempt, sentAt: at, madeFrom: at - 2_000 };
    const warning = lateLeftoverWarning("demo-app", [volume("vol_old")], [later]);
    expect(warning).toMatch(/that this run did not make \(vol_old/);
  });
  it("an attempt for another name changes nothing", () => {
    const other = { ...attempt, name: "logs" };
    expect(leftoverWarning("demo-app", volume("vol_new"), [volume("vol_old")], [other])).toMatch(
      /already had 1 unattached volume/,
    );
  });
});

describe("the warning about a volume taken over after a lost answer (issue 46)", () => {
  it("names the volume's id and the sdk's why, and what to do if it is another writer's", () => {
    const v = volume("vol_taken");
    const warning = takeOverWarning("demo-app", v, { volume: v, sentAt: 0, why: "the only candidate" });
    expect(warning).toMatch(
      /^volume "data" in app demo-app is vol_taken, taken over after a lost answer: the only candidate/,
    );
    expect(warning).toMatch(/pulumi state delete/);
  });
  it("says nothing of a volume a create's answer returned", () => {
    expect(takeOverWarning("demo-app", volume("vol_new"), undefined)).toBeUndefined();
  });
});
