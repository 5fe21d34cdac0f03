import { describe, expect, it } from "vitest";
import {
  validateAcmeCertificateArgs,
  validatePostgresPasswordRotationArgs,
  validateVolumeArgs,
  validateVolumeSnapshotArgs,
} from "../../../provider/kinds/declarations";
import { nearestName, UNKNOWN } from "../../../provider/model/validation";

// One rule for every resource: an unknown input property is refused at preview, naming the
// nearest known name.
const base = { app: "demo-app", name: "data" };

describe("unknown input properties are rejected at preview with the nearest known name", () => {
  const cases: {
    rule: string;
    validate: (news: Record<string, unknown>) => { property: string; reason: string }[];
    news: Record<string, unknown>;
    expected: { property: string; reason: string }[];
  }[] = [
    {
      rule: "Volume: sizeGB (a typo of sizeGb) names the property and suggests sizeGb",
      validate: (n) => validateVolumeArgs(n),
      news: { ...base, sizeGB: 10 },
      expected: [{ property: "sizeGB", reason: "unknown property sizeGB: did you mean sizeGb?" }],
    },
    {
      rule: "Volume: a misspelling (regoin, one swap) suggests region",
      validate: (n) => validateVolumeArgs(n),
      news: { ...base, regoin: "ord" },
      expected: [{ property: "regoin", reason: "unknown property regoin: did you mean region?" }],
    },
    {
      rule: "Volume: a typo inside compute names compute.cpukind and suggests compute.cpuKind",
      validate: (n) => validateVolumeArgs(n),
      news: { ...base, compute: { cpukind: "shared" } },
      expected: [
        {
          property: "compute.cpukind",
          reason: "unknown property compute.cpukind: did you mean compute.cpuKind?",
        },
      ],
    },
    {
      rule: "Volume: a name close to nothing lists the names a Volume takes",
      validate: (n) => validateVolumeArgs(n),
      news: { ...base, colour: "blue" },
      expected: [
        {
          property: "colour",
          reason: expect.stringMatching(/^unknown property colour: Volume takes app, name, region, sizeGb, /),
        },
      ],
    },
    {
      rule: "AcmeCertificate: hostName suggests hostname (same letters, other case)",
      validate: validateAcmeCertificateArgs,
      news: { app: "demo-app", hostname: "www.example.com", hostName: "www.example.com" },
      expected: [{ property: "hostName", reason: "unknown property hostName: did you mean hostname?" }],
    },
    {
      rule: "PostgresPasswordRotation: killsessions suggests killSessions",
      validate: validatePostgresPasswordRotationArgs,
      news: { clusterId: "demo-pg", username: "app_user", killsessions: true },
      expected: [
        { property: "killsessions", reason: "unknown property killsessions: did you mean killSessions?" },
      ],
    },
    {
      rule: "PostgresPasswordRotation: a password input is unknown and named by no property",
      validate: validatePostgresPasswordRotationArgs,
      news: { clusterId: "demo-pg", username: "app_user", password: "hunter2" },
      expected: [{ property: "", reason: expect.stringMatching(/^unknown property password: /) }],
    },
    {
      rule: "VolumeSnapshot: waitTimeout suggests waitTimeoutSeconds",
      validate: validateVolumeSnapshotArgs,
      news: { app: "demo-app", volumeId: "vol_1", waitTimeout: 60 },
      expected: [
        {
          property: "waitTimeout",
          reason: expect.stringMatching(
            /^unknown property waitTimeout: VolumeSnapshot takes app, volumeId, /,
          ),
        },
      ],
    },
    {
      rule: "the engine's own members (__provider, other __ names) are not typos",
      validate: (n) => validateVolumeArgs(n),
      news: { ...base, __provider: "exports.handler = __f0;", __internal: 1 },
      expected: [],
    },
    {
      rule: "an unknown property holding a value unknown at preview is still a typo",
      validate: (n) => validateVolumeArgs(n),
      news: { ...base, sizeGB: UNKNOWN },
      expected: [{ property: "sizeGB", reason: "unknown property sizeGB: did you mean sizeGb?" }],
    },
  ];
  for (const c of cases) {
    it(c.rule, () => {
      expect(c.validate(c.news)).toEqual(c.expected);
    });
  }

  const nearest: [string, string, string[], string | undefined][] = [
    ["prefers the same letters in another case", "SIZEGB", ["sizeGb", "size"], "sizeGb"],
    ["takes a swap of neighbours as one edit", "naem", ["name", "app"], "name"],
    ["takes the closest of several candidates", "regio", ["region", "regions2"], "region"],
    ["suggests nothing two edits away from a three-letter name", "abc", ["app", "name"], undefined],
    [
      "allows a third of a long name's length",
      "snapshotRetentionDays",
      ["snapshotRetention"],
      "snapshotRetention",
    ],
  ];
  for (const [rule, name, known, expected] of nearest) {
    it(`nearestName ${rule}`, () => expect(nearestName(name, known)).toBe(expected));
  }
});
