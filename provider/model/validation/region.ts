/**
 * The region rule. A code of the wrong shape (`mars`, `IAD`, `us-east`) is never a region: check
 * refuses it at preview. A well-shaped code missing from the shared list (`ida`) is only warned
 * about, naming the nearest known code: the list is this release's copy of a public list that
 * grows, and a region added after the release must not be blocked until an upgrade. The platform
 * (and the emulator) refuse a code they do not know at `up`.
 * @module
 */
import { z } from "zod";
import { isKnownRegion, isRetiredRegion, PLATFORM_REGIONS, REGION_CODE } from "../../../sdk/schemas/regions";
import { nearestName, shown } from "./common";

const CURRENT: readonly string[] = PLATFORM_REGIONS;

function didYouMean(code: string): string {
  const nearest = nearestName(code, CURRENT);
  return nearest ? `: did you mean ${nearest}?` : "";
}

/** An optional region code: three lowercase letters. */
export function optionalRegion(property: string) {
  const rule = `${property} must be a region code, three lowercase letters such as iad or lhr`;
  return z
    .string({ error: (iss) => `${rule} (got ${shown(iss.input)})` })
    .refine((code) => REGION_CODE.test(code), {
      error: (iss) => `${rule} (got ${shown(iss.input)})${didYouMean(String(iss.input))}`,
    })
    .optional();
}

/**
 * The preview warning about a well-shaped region `code` that the list does not hold as a current
 * region, or undefined when it does (or the code has the wrong shape: check refuses that).
 */
export function regionWarning(code: string): string | undefined {
  if (!REGION_CODE.test(code)) return undefined;
  const known = `the platform's regions are ${CURRENT.join(", ")}`;
  if (isRetiredRegion(code)) {
    return `region "${code}" is no longer in the platform's list of regions (deprecated in October 2025): a new volume there may be refused at up; ${known}`;
  }
  if (isKnownRegion(code)) return undefined;
  const nearest = nearestName(code, CURRENT);
  const hint = nearest ? `did you mean ${nearest}? ` : "";
  return `region "${code}" is not one of the platform's regions known to this release of pulumi-platform: ${hint}A region added since is fine (the platform decides at up); ${known}`;
}
