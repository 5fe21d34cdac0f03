import type { ResourceValidationArgs, ResourceValidationPolicy } from "@pulumi/policy";
import { beforeAll, describe, expect, it } from "vitest";
import { pluginTypeToken, RESOURCE_KEYS, registry, typeToken } from "../../../provider/kinds/registry";
import {
  isPlatformResource,
  PLATFORM_POLICY_DEFAULTS,
  type PlatformPolicyName,
  platformInputs,
  platformKindOf,
  platformPolicies,
  platformTypeTokens,
  withRuleLevels,
} from "../../../provider/policy";
import { days, makeCert } from "../../support/certs";

const PROVIDER = { __provider: "exports.handler = …" };

/** What CrossGuard passes a resource validation: the config is the schema's defaults, then `config`. */
function argsFor(
  policy: ResourceValidationPolicy,
  type: string,
  props: Record<string, unknown>,
  config: Record<string, unknown> = {},
): ResourceValidationArgs {
  const defaults = Object.fromEntries(
    Object.entries(policy.configSchema?.properties ?? {}).map(([k, schema]) => [k, schema.default]),
  );
  return {
    type,
    props: { ...PROVIDER, ...props },
    urn: `urn:pulumi:dev::app::${type}::r`,
    name: "r",
    opts: {} as ResourceValidationArgs["opts"],
    stackTags: new Map(),
    isType: () => false,
    asType: () => undefined,
    getConfig: <T extends object>() => ({ ...defaults, ...config }) as T,
    notApplicable: () => {
      throw new Error("not applicable");
    },
  };
}

function policy(name: PlatformPolicyName): ResourceValidationPolicy {
  const found = platformPolicies().find((p) => p.name === name);
  if (!found) throw new Error(`no policy ${name}`);
  return found;
}

/** The violations `name` reports for a resource of `type` with `props`. */
async function violations(
  name: PlatformPolicyName,
  type: string,
  props: Record<string, unknown>,
  config?: Record<string, unknown>,
): Promise<string[]> {
  const p = policy(name);
  const reported: string[] = [];
  const validations = [p.validateResource ?? []].flat();
  for (const validate of validations) {
    await validate(argsFor(p, type, props, config), (message) => reported.push(message));
  }
  return reported;
}

const VOLUME = platformTypeTokens.volume;
const ROTATION = platformTypeTokens.postgresPasswordRotation;
const CUSTOM = platformTypeTokens.customCertificate;
const volume = { app: "demo-app", name: "data" };
const rotation = { clusterId: "pg-main", username: "app_user" };

describe("typed access to our resources from a policy", () => {
  it("every kind's type token is the registry's, and maps back to its kind", () => {
    for (const key of RESOURCE_KEYS) {
      expect(platformTypeTokens[key]).toBe(typeToken(registry[key]));
      expect(platformKindOf(platformTypeTokens[key])).toBe(key);
    }
    expect(platformTypeTokens.volume).toBe("pulumi-nodejs:dynamic/platform:Volume");
    expect(platformKindOf("aws:s3/bucket:Bucket")).toBeUndefined();
  });

  it("the provider plugin's resources (platform:index:<class>) are the same kinds, with the same rules", async () => {
    for (const key of RESOURCE_KEYS) expect(platformKindOf(pluginTypeToken(registry[key]))).toBe(key);
    expect(
      await violations("platform-volume-encrypted", "platform:index:Volume", { ...volume, encrypted: false }),
    ).toEqual([expect.stringContaining("volumes must be encrypted")]);
  });

  it("platformInputs gives a Volume's inputs only for a Volume", () => {
    const args = { type: VOLUME, props: { ...PROVIDER, ...volume, sizeGb: 10 } };
    expect(isPlatformResource(args, "volume")).toBe(true);
    expect(platformInputs(args, "volume")?.sizeGb).toBe(10);
    expect(platformInputs(args, "customCertificate")).toBeUndefined();
  });

  it("a rule leaves other kinds and other providers' resources alone", async () => {
    expect(
      await violations("platform-volume-encrypted", ROTATION, { ...rotation, encrypted: false }),
    ).toEqual([]);
    expect(
      await violations("platform-volume-encrypted", "aws:ebs/volume:Volume", { encrypted: false }),
    ).toEqual([]);
  });

  it("the pack's default enforcement levels are CrossGuard's levels, as documented", () => {
    const levels = Object.fromEntries(platformPolicies().map((p) => [p.name, p.enforcementLevel]));
    expect(levels).toEqual(PLATFORM_POLICY_DEFAULTS);
    expect(levels["platform-volume-encrypted"]).toBe("mandatory");
    expect(levels["platform-certificate-expiry"]).toBe("advisory");
  });
});

/**
 * The enforcement level the engine receives for `name` in a pack's initial config, through
 * `@pulumi/policy`'s own encoding of the analyzer info (what `GetAnalyzerInfo` answers).
 */
function initialLevel(config: Parameters<typeof withRuleLevels>[0], name: string): string | undefined {
  const { makeAnalyzerInfo } = require("@pulumi/policy/protoutil") as {
    makeAnalyzerInfo(...args: unknown[]): {
      getInitialconfigMap(): { get(key: string): { getEnforcementlevel(): number } | undefined };
    };
  };
  const info = makeAnalyzerInfo("pack", "0.1.0", "advisory", { policies: platformPolicies() }, config);
  const level = info.getInitialconfigMap().get(name)?.getEnforcementlevel();
  return level === undefined ? undefined : ["advisory", "mandatory", "disabled", "remediate"][level];
}

describe("the pack's config keeps each rule's own level", () => {
  it("@pulumi/policy sends a config without enforcementLevel as advisory (why the pack fills it in)", () => {
    expect(
      initialLevel(
        { "platform-volume-snapshot-retention": { minimumDays: 14 } },
        "platform-volume-snapshot-retention",
      ),
    ).toBe("advisory");
  });

  it("a rule given only its config keeps its default level: mandatory retention, advisory expiry", () => {
    const config = withRuleLevels(
      {
        "platform-volume-snapshot-retention": { minimumDays: 14 },
        "platform-certificate-expiry": { minimumDaysLeft: 10 },
      },
      platformPolicies(),
    );
    expect(config).toEqual({
      "platform-volume-snapshot-retention": { minimumDays: 14, enforcementLevel: "mandatory" },
      "platform-certificate-expiry": { minimumDaysLeft: 10, enforcementLevel: "advisory" },
    });
    expect(initialLevel(config, "platform-volume-snapshot-retention")).toBe("mandatory");
  });

  it("a level given as the entry or in it wins, and an entry for no known rule is passed on as it is", () => {
    const given = {
      "platform-volume-snapshot-retention": { minimumDays: 14, enforcementLevel: "advisory" as const },
      "platform-rotation-alternate-user": "mandatory" as const,
      "someone-elses-rule": { limit: 3 },
    };
    expect(withRuleLevels(given, platformPolicies())).toEqual(given);
  });

  it("a team's own rule passed as an extra policy keeps its level too", () => {
    const own = { name: "volumes-in-iad", enforcementLevel: "mandatory" as const };
    expect(withRuleLevels({ "volumes-in-iad": { region: "iad" } }, [own])).toEqual({
      "volumes-in-iad": { region: "iad", enforcementLevel: "mandatory" },
    });
  });
});

describe("the pack's rules", () => {
  it("platform-volume-encrypted refuses encrypted: false, accepts true and the platform's default", async () => {
    expect(await violations("platform-volume-encrypted", VOLUME, { ...volume, encrypted: false })).toEqual([
      "volume data of app demo-app sets encrypted: false; volumes must be encrypted (leave encrypted out or set it to true)",
    ]);
    expect(await violations("platform-volume-encrypted", VOLUME, { ...volume, encrypted: true })).toEqual([]);
    expect(await violations("platform-volume-encrypted", VOLUME, volume)).toEqual([]);
  });

  it("platform-volume-auto-backup refuses autoBackupEnabled: false only", async () => {
    expect(
      await violations("platform-volume-auto-backup", VOLUME, { ...volume, autoBackupEnabled: false }),
    ).toEqual([expect.stringContaining("sets autoBackupEnabled: false")]);
    expect(await violations("platform-volume-auto-backup", VOLUME, volume)).toEqual([]);
  });

  it.each([
    {
      rule: "the platform's 5 days are below the default minimum of 7",
      props: {},
      config: {},
      refused: true,
    },
    { rule: "7 days meet the default minimum", props: { snapshotRetention: 7 }, config: {}, refused: false },
    {
      rule: "10 days are below a configured 14",
      props: { snapshotRetention: 10 },
      config: { minimumDays: 14 },
      refused: true,
    },
    {
      rule: "the platform's 5 days meet a configured 3",
      props: {},
      config: { minimumDays: 3 },
      refused: false,
    },
  ])("platform-volume-snapshot-retention: $rule", async ({ props, config, refused }) => {
    const found = await violations(
      "platform-volume-snapshot-retention",
      VOLUME,
      { ...volume, ...props },
      config,
    );
    expect(found.length > 0).toBe(refused);
  });

  it("platform-volume-snapshot-retention says what the platform keeps when the program leaves it out", async () => {
    expect(await violations("platform-volume-snapshot-retention", VOLUME, volume)).toEqual([
      "volume data of app demo-app leaves snapshotRetention out (the platform keeps snapshots 5 days); snapshots must be kept at least 7 days: set snapshotRetention to 7 or more",
    ]);
  });

  it.each([
    { rule: "no schedule", props: {}, config: {}, message: "has no rotationDays" },
    {
      rule: "120 days over the default 90",
      props: { rotationDays: 120 },
      config: {},
      message: "sets rotationDays: 120",
    },
    {
      rule: "30 days over a configured 14",
      props: { rotationDays: 30 },
      config: { maximumDays: 14 },
      message: "at least every 14 days",
    },
    { rule: "30 days within the default 90", props: { rotationDays: 30 }, config: {}, message: undefined },
  ])("platform-rotation-schedule: $rule", async ({ props, config, message }) => {
    const found = await violations("platform-rotation-schedule", ROTATION, { ...rotation, ...props }, config);
    if (message === undefined) expect(found).toEqual([]);
    else expect(found).toEqual([expect.stringContaining(message)]);
  });

  it.each([
    {
      rule: "a scheduled rotation without alternateUsername",
      props: { rotationDays: 30 },
      config: {},
      refused: true,
    },
    {
      rule: "a scheduled rotation with alternateUsername",
      props: { rotationDays: 30, alternateUsername: "app_user_b" },
      config: {},
      refused: false,
    },
    { rule: "an unscheduled rotation, by default", props: {}, config: {}, refused: false },
    {
      rule: "an unscheduled rotation with scheduledOnly: false",
      props: {},
      config: { scheduledOnly: false },
      refused: true,
    },
  ])("platform-rotation-alternate-user: $rule", async ({ props, config, refused }) => {
    const found = await violations(
      "platform-rotation-alternate-user",
      ROTATION,
      { ...rotation, ...props },
      config,
    );
    expect(found.length > 0).toBe(refused);
  });

  describe("platform-certificate-expiry", () => {
    let soon: string;
    let later: string;
    beforeAll(async () => {
      [soon, later] = await Promise.all([
        makeCert("www.example.com", ["www.example.com"], { to: Date.now() + days(10) }).then((c) => c.cert),
        makeCert("www.example.com", ["www.example.com"], { to: Date.now() + days(200) }).then((c) => c.cert),
      ]);
    });
    const cert = (fullchain: string) => ({
      app: "demo-app",
      hostname: "www.example.com",
      fullchain,
      privateKey: "k",
    });

    it("warns about a chain that expires within 30 days, naming the hostname and no PEM", async () => {
      const found = await violations("platform-certificate-expiry", CUSTOM, cert(soon));
      expect(found).toEqual([
        expect.stringMatching(/^the custom certificate of www\.example\.com expires on .* \(in 9 days\)/),
      ]);
      expect(found[0]).toContain("this policy asks for 30 days left");
      expect(found[0]).not.toContain("BEGIN");
    });

    it("accepts a chain with more days left than asked, and follows minimumDaysLeft", async () => {
      expect(await violations("platform-certificate-expiry", CUSTOM, cert(later))).toEqual([]);
      expect(
        await violations("platform-certificate-expiry", CUSTOM, cert(later), { minimumDaysLeft: 365 }),
      ).toHaveLength(1);
    });

    it("leaves a chain that does not parse to the resource's own check", async () => {
      expect(await violations("platform-certificate-expiry", CUSTOM, cert("not a PEM"))).toEqual([]);
    });
  });
});
