/**
 * Typed access to our resources from a CrossGuard policy. A policy sees each resource as its type
 * token (`pulumi-nodejs:dynamic/platform:<type>`) and its checked inputs, with the serialized
 * provider (`__provider`) among them; these helpers name the kind by its runtime key and type the
 * inputs by the kind's declaration (../kinds/registry), so no token or input name is written twice.
 * Loaded by a policy pack; needs `@pulumi/policy` for types only.
 * @module
 */
import type { ReportViolation, ResourceValidation, ResourceValidationArgs } from "@pulumi/policy";
import {
  keyOfPluginToken,
  keyOfTypeToken,
  RESOURCE_KEYS,
  type ResourceKey,
  registry,
  typeToken,
} from "../kinds/registry";
import type { InputValues } from "../model/declaration";

/** A kind of resource, named by its runtime key (`volume`, `customCertificate`, …). */
export type PlatformKind = ResourceKey;

/**
 * A kind's inputs as a policy sees them: what the resource's `check` accepted, typed by its
 * declaration. An input left out is undefined (the platform's default applies). Reading a value
 * that is unknown at preview throws, and CrossGuard reports that the policy could not run.
 */
export type PlatformInputs<K extends PlatformKind> = InputValues<(typeof registry)[K]["declaration"]>;

/** The type token of each kind, as a policy's `args.type` shows it. */
export const platformTypeTokens: { readonly [K in PlatformKind]: string } = Object.fromEntries(
  RESOURCE_KEYS.map((key) => [key, typeToken(registry[key])]),
) as { readonly [K in PlatformKind]: string };

/**
 * The kind of a resource by its type token, through either door (the dynamic resources'
 * `pulumi-nodejs:dynamic/platform:<type>`, the provider plugin's `platform:index:<class>`), or
 * undefined when it is not one of ours.
 */
export function platformKindOf(type: string): PlatformKind | undefined {
  return keyOfTypeToken(type) ?? keyOfPluginToken(type);
}

/** Whether the resource a policy looks at is of kind `kind` (either door). */
export function isPlatformResource<K extends PlatformKind>(args: { type: string }, kind: K): boolean {
  return platformKindOf(args.type) === kind;
}

/** The inputs of the resource a policy looks at when it is of kind `kind`, else undefined. */
export function platformInputs<K extends PlatformKind>(
  args: { type: string; props: Record<string, unknown> },
  kind: K,
): PlatformInputs<K> | undefined {
  return isPlatformResource(args, kind) ? (args.props as PlatformInputs<K>) : undefined;
}

/** A validation that runs only for resources of kind `kind`, with their typed inputs. */
export type PlatformValidation<K extends PlatformKind> = (
  inputs: PlatformInputs<K>,
  args: ResourceValidationArgs,
  reportViolation: ReportViolation,
) => void | Promise<void>;

/**
 * A `validateResource` for resources of kind `kind` (others are left alone), like
 * `validateResourceOfType` of `@pulumi/policy`, which cannot recognise our classes.
 *
 * @example
 * ```ts
 * validateResource: validatePlatformResource("volume", (volume, args, reportViolation) => {
 *   if (volume.region !== "ord") reportViolation(`volume ${volume.name} must be in ord`);
 * }),
 * ```
 */
export function validatePlatformResource<K extends PlatformKind>(
  kind: K,
  validate: PlatformValidation<K>,
): ResourceValidation {
  return (args, reportViolation) => {
    const inputs = platformInputs(args, kind);
    if (inputs !== undefined) return validate(inputs, args, reportViolation);
  };
}
