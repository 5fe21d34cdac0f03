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
 *   "platform-volume-snapshot-retention": { minimumDays: 14 },
 *   "platform-rotation-alternate-user": "mandatory",
 * });
 * ```
 * @module
 */
import type { PolicyPack, PolicyPackConfig, ResourceValidationPolicy } from "@pulumi/policy";
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
 * Starts the ready policy pack (every rule of {@link platformPolicies}, plus `extraPolicies`).
 * `config` sets a rule's enforcement level or its config, as CrossGuard's initial config does; a
 * `--policy-pack-config` file given to `pulumi preview` overrides it.
 */
export function platformPolicyPack(
  name = "pulumi-platform",
  config?: PolicyPackConfig,
  extraPolicies: ResourceValidationPolicy[] = [],
): PolicyPack {
  // Loaded here, not at the top: the helpers above work without the optional peer dependency.
  const { PolicyPack } = require("@pulumi/policy") as typeof import("@pulumi/policy");
  return new PolicyPack(
    name,
    {
      description: "Guardrails for the platform's volumes, certificates and Postgres password rotations.",
      policies: [...platformPolicies(), ...extraPolicies],
    },
    config,
  );
}
