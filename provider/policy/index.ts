/**
 * pulumi-platform/policy: CrossGuard policies for programs that use pulumi-platform. Typed helpers
 * to write your own rules against our resources, and a ready pack of rules a platform team switches
 * on. Needs `@pulumi/policy` (an optional peer dependency) in the policy pack.
 *
 * @example
 * ```ts
 * // index.ts of a policy pack (PulumiPolicy.yaml: `runtime: nodejs`)
 * import { platformPolicyPack } from "pulumi-platform/policy";
 *
 * platformPolicyPack("platform-guardrails", {
 *   "platform-volume-snapshot-retention": { minimumDays: 14 }, // stays mandatory
 *   "platform-rotation-alternate-user": "mandatory",
 * });
 * ```
 * @module
 */
import type {
  EnforcementLevel,
  PolicyPack,
  PolicyPackConfig,
  ResourceValidationPolicy,
} from "@pulumi/policy";
import { platformPolicies } from "./rules";

export {
  isPlatformResource,
  type PlatformInputs,
  type PlatformKind,
  type PlatformValidation,
  platformInputs,
  platformKindOf,
  platformTypeTokens,
  validatePlatformResource,
} from "./resources";
export {
  DEFAULT_MAXIMUM_ROTATION_DAYS,
  DEFAULT_MINIMUM_RETENTION_DAYS,
  PLATFORM_POLICY_DEFAULTS,
  type PlatformPolicyName,
  platformPolicies,
} from "./rules";

/**
 * `config` with each rule's own enforcement level written into every entry that sets only the
 * rule's config (`{ minimumDays: 14 }`). `@pulumi/policy` sends such an entry to the engine as a
 * config whose level is protobuf's zero value, which is `advisory`: a mandatory rule given only its
 * config would silently become advisory. A level given in the entry, or as the entry, is kept.
 */
export function withRuleLevels(
  config: PolicyPackConfig,
  policies: readonly { name: string; enforcementLevel?: EnforcementLevel }[],
): PolicyPackConfig {
  const levels = new Map(policies.map((p) => [p.name, p.enforcementLevel]));
  return Object.fromEntries(
    Object.entries(config).map(([name, entry]) => {
      const level = levels.get(name);
      if (typeof entry === "string" || entry.enforcementLevel !== undefined || level === undefined) {
        return [name, entry];
      }
      return [name, { ...entry, enforcementLevel: level }];
    }),
  );
}

/**
 * Starts the ready policy pack (every rule of {@link platformPolicies}, plus `extraPolicies`).
 * `config` sets a rule's enforcement level or its config, as CrossGuard's initial config does; an
 * entry that sets only a rule's config keeps the rule's own level ({@link withRuleLevels}). A
 * `--policy-pack-config` file given to `pulumi preview` overrides it.
 */
export function platformPolicyPack(
  name = "pulumi-platform",
  config?: PolicyPackConfig,
  extraPolicies: ResourceValidationPolicy[] = [],
): PolicyPack {
  // Loaded here, not at the top: the helpers above work without the optional peer dependency.
  const { PolicyPack } = require("@pulumi/policy") as typeof import("@pulumi/policy");
  const policies = [...platformPolicies(), ...extraPolicies];
  return new PolicyPack(
    name,
    {
      description: "Guardrails for the platform's volumes, certificates and Postgres password rotations.",
      policies,
    },
    config && withRuleLevels(config, policies),
  );
}
