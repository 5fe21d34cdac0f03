import { describe, expect, it } from "vitest";
import { leftoverWarning } from "../../../provider/runtime/leftovers";
import type { Volume } from "../../../sdk";

const volume = (id: string, over: Partial<Volume> = {}): Volume => ({
  id,
  name: "data",
  state: "created",
  size_gb: 3,
  region: "iad",
  zone: "z1",
  encrypted: true,
  attached_machine_id: null,
  attached_alloc_id: null,
  created_at: "2026-11-23T08:00:00Z",
  blocks: 0,
  block_size: 0,
  blocks_free: 0,
  blocks_avail: 0,
  fstype: "",
  snapshot_retention: 5,
  auto_backup_enabled: true,
  host_dedication_key: "",
  ...over,
});

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
