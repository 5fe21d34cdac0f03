import { describe, expect, it } from "vitest";
import { validateVolumeArgs } from "../../../../provider/kinds/declarations";
import { UNKNOWN } from "../../../../provider/model/validation";

const base = { app: "demo-app", name: "data" };

describe("validateVolumeArgs", () => {
  const cases: {
    rule: string;
    news: Record<string, unknown>;
    olds?: Record<string, unknown>;
    property?: string;
    reason?: RegExp;
  }[] = [
    { rule: "accepts the minimal inputs (app and name)", news: base },
    { rule: "requires app", news: { name: "data" }, property: "app", reason: /app is required/ },
    { rule: "requires name", news: { app: "demo-app" }, property: "name", reason: /name is required/ },
    {
      rule: "rejects an empty name",
      news: { ...base, name: "" },
      property: "name",
      reason: /must not be empty/,
    },
    {
      rule: "rejects snapshotRetention above 60",
      news: { ...base, snapshotRetention: 61 },
      property: "snapshotRetention",
      reason: /whole number from 1 to 60 days \(got 61\)/,
    },
    {
      rule: "rejects snapshotRetention below 1",
      news: { ...base, snapshotRetention: 0 },
      property: "snapshotRetention",
      reason: /from 1 to 60/,
    },
    {
      rule: "rejects a fractional snapshotRetention",
      news: { ...base, snapshotRetention: 2.5 },
      property: "snapshotRetention",
    },
    { rule: "accepts snapshotRetention 1 and 60", news: { ...base, snapshotRetention: 60 } },
    {
      rule: "rejects a zero sizeGb",
      news: { ...base, sizeGb: 0 },
      property: "sizeGb",
      reason: /GB \(got 0\)/,
    },
    { rule: "rejects a string sizeGb", news: { ...base, sizeGb: "10" }, property: "sizeGb" },
    {
      rule: "rejects a non-boolean encrypted",
      news: { ...base, encrypted: "yes" },
      property: "encrypted",
      reason: /true or false/,
    },
    {
      rule: "rejects an unknown compute.cpuKind",
      news: { ...base, compute: { cpuKind: "turbo" } },
      property: "compute.cpuKind",
      reason: /"shared" or "performance"/,
    },
    {
      rule: "rejects a non-string entry of compute.kernelArgs",
      news: { ...base, compute: { kernelArgs: ["a", 3] } },
      property: "compute.kernelArgs[1]",
    },
    {
      rule: "requires region when restoring from snapshotId",
      news: { ...base, snapshotId: "vs_1" },
      property: "region",
      reason: /region is required when restoring/,
    },
    { rule: "accepts a restore with region", news: { ...base, snapshotId: "vs_1", region: "ord" } },
    {
      rule: "rejects snapshotId together with sourceVolumeId",
      news: { ...base, snapshotId: "vs_1", region: "ord", sourceVolumeId: "vol_1" },
      property: "sourceVolumeId",
      reason: /exclude each other/,
    },
    {
      rule: "rejects adoptVolumeId together with snapshotId",
      news: { ...base, adoptVolumeId: "vol_1", snapshotId: "vs_1", region: "ord" },
      property: "snapshotId",
      reason: /cannot be combined with adoptVolumeId/,
    },
    {
      rule: "rejects restoreTimeoutSeconds of 0",
      news: { ...base, restoreTimeoutSeconds: 0 },
      property: "restoreTimeoutSeconds",
    },
    {
      rule: "rejects a shrink from 10 to 5 GB",
      olds: { ...base, sizeGb: 10 },
      news: { ...base, sizeGb: 5 },
      property: "sizeGb",
      reason: /^volumes can only grow: 10 GB → 5 GB$/,
    },
    { rule: "accepts growth from 10 to 20 GB", olds: { ...base, sizeGb: 10 }, news: { ...base, sizeGb: 20 } },
    { rule: "accepts removing sizeGb (not a change)", olds: { ...base, sizeGb: 10 }, news: base },
    {
      rule: "accepts a smaller sizeGb when the volume is replaced anyway (new name)",
      olds: { ...base, sizeGb: 10 },
      news: { ...base, name: "other", sizeGb: 5 },
    },
    {
      rule: "rejects a shrink when compute only lists the same keys in another order (not a replace)",
      olds: { ...base, sizeGb: 10, compute: { cpus: 2, memoryMb: 512 } },
      news: { ...base, sizeGb: 5, compute: { memoryMb: 512, cpus: 2 } },
      property: "sizeGb",
      reason: /^volumes can only grow: 10 GB → 5 GB$/,
    },
    {
      rule: "skips values unknown at preview (sizeGb, compute, snapshotId)",
      olds: { ...base, sizeGb: 10 },
      news: { ...base, sizeGb: UNKNOWN, compute: UNKNOWN, snapshotId: UNKNOWN, region: "ord" },
    },
    {
      rule: "counts an unknown snapshotId as given, so region is still required",
      news: { ...base, snapshotId: UNKNOWN },
      property: "region",
    },
    {
      rule: 'rejects region "mars": a region code is three lowercase letters',
      news: { ...base, region: "mars" },
      property: "region",
      reason: /^region must be a region code, three lowercase letters such as iad or lhr \(got "mars"\)$/,
    },
    {
      rule: 'rejects region "IAD" and names the code meant',
      news: { ...base, region: "IAD" },
      property: "region",
      reason: /three lowercase letters .*\(got "IAD"\): did you mean iad\?/,
    },
    { rule: 'rejects region "us-east"', news: { ...base, region: "us-east" }, property: "region" },
    { rule: "rejects an empty region", news: { ...base, region: "" }, property: "region" },
    { rule: "rejects a numeric region", news: { ...base, region: 1 }, property: "region" },
    {
      rule: 'accepts a well-shaped region this release does not know ("ida"): preview only warns',
      news: { ...base, region: "ida" },
    },
    { rule: "accepts every region of the shared list", news: { ...base, region: "jnb" } },
    { rule: "accepts a region unknown at preview", news: { ...base, region: UNKNOWN } },
  ];

  for (const c of cases) {
    it(c.rule, () => {
      const failures = validateVolumeArgs(c.news, c.olds);
      if (!c.property) {
        expect(failures).toEqual([]);
        return;
      }
      const failure = failures.find((f) => f.property === c.property);
      expect(failure, JSON.stringify(failures)).toBeDefined();
      if (c.reason) expect(failure?.reason).toMatch(c.reason);
    });
  }
});
