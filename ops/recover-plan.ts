/**
 * What `pulumi-platform recover` will do about an interrupted `pulumi up`: for every pending
 * create in the stack's checkpoint, what it may have made at the platform that no resource of
 * the stack owns. Reading only; ./recover-checkpoint applies the plan.
 * @module
 */

import { keyOfPluginToken, keyOfTypeToken, type ResourceKey, registry } from "../provider/kinds/registry";
import { type CheckpointResource, nonEmpty, type PlatformLookups } from "../provider/model/recovery";

export type { CheckpointResource, ListedVolume, PlatformLookups } from "../provider/model/recovery";

/** An exported deployment (`pulumi stack export`, version 3). */
export interface ExportedDeployment {
  version: number;
  deployment: {
    resources?: CheckpointResource[];
    pending_operations?: { resource: CheckpointResource; type: string; [key: string]: unknown }[];
    [key: string]: unknown;
  };
}

/** Our resource kinds: their runtime keys (../provider/kinds/registry). */
export type RecoverableKind = ResourceKey;

/**
 * The kind of a checkpoint resource type, through either door (the dynamic resources'
 * `pulumi-nodejs:dynamic/platform:<type>`, the plugin's `platform:index:<class>`), or undefined
 * when it is not one of ours. `custom: false`: a component, which is never a kind (the dynamic
 * door's `platform:index:VolumeSnapshot` component shares the plugin's token).
 */
export function kindOf(type: string, resource: { custom?: boolean } = {}): RecoverableKind | undefined {
  if (resource.custom === false) return undefined;
  return keyOfTypeToken(type) ?? keyOfPluginToken(type);
}

/** Whether a checkpoint resource type is one the provider plugin serves (`platform:index:<class>`). */
export function isPluginType(type: string): boolean {
  return keyOfPluginToken(type) !== undefined;
}

/** One pending create and what to do about it. */
export type PendingAction =
  /**
   * Something at the platform is this resource: record it in the stack with this id. `replacing`:
   * the pending create was a replacement of the resource of that URN (which then is deleted by the
   * next `up`, as the interrupted one would have done).
   */
  | { action: "import"; kind: RecoverableKind; urn: string; id: string; what: string; replacing?: true }
  /**
   * Nothing (identifiable) was made: drop the pending operation; the next `up` creates it.
   * `recreated`: a later `up` already created the resource again, so what the interrupted create
   * made is an orphan only the sweep can find.
   */
  | { action: "clear"; kind: RecoverableKind; urn: string; why: string; recreated?: true }
  /** More than one candidate: left pending, the user decides. */
  | { action: "ambiguous"; kind: RecoverableKind; urn: string; candidates: string[] };

/** Keys (see the kinds' `recovery.owned`) of what resources of the stack own. */
function owned(resources: CheckpointResource[]): Set<string> {
  const keys = new Set<string>();
  for (const r of resources) {
    const kind = kindOf(r.type, r);
    const key = kind && registry[kind].recovery.owned(r, { ...(r.inputs ?? {}), ...(r.outputs ?? {}) });
    if (key) keys.add(key);
  }
  return keys;
}

/**
 * The plan for every pending create of the deployment. A volume a pending create made is named
 * like it, owned by no resource, attached to nothing, and created after `since` when given (the
 * interrupted update's start, from its lock, else the end of the last update that completed).
 */
export async function planRecovery(
  exported: ExportedDeployment,
  platform: PlatformLookups,
  options: { since?: Date } = {},
): Promise<PendingAction[]> {
  const since = options.since?.getTime() ?? Number.NEGATIVE_INFINITY;
  const deployment = exported.deployment;
  const own = owned(deployment.resources ?? []);
  const plan: PendingAction[] = [];
  const claimed = new Set<string>();
  const free = (key: string) => !own.has(key) && !claimed.has(key);
  const existing = new Set((deployment.resources ?? []).map((r) => r.urn));
  for (const op of deployment.pending_operations ?? []) {
    const r = op.resource;
    const kind = kindOf(r.type, r);
    // Other providers' pending creates are theirs to resolve: left as they are.
    if (op.type !== "creating" || kind === undefined) continue;
    // The URN is in the stack already: the pending create replaced it (an input that replaces
    // changed), or a later `up` created it again. Only a replacement's create is found below: it
    // was made since the interrupted update began, and the stack does not own it.
    const replacing = existing.has(r.urn) ? ({ replacing: true } as const) : {};
    const cleared = (why: string): PendingAction =>
      existing.has(r.urn)
        ? {
            action: "clear",
            kind,
            urn: r.urn,
            why: "a later `pulumi up` created this resource again, or its replacement made nothing; what an interrupted create made is swept below",
            recreated: true,
          }
        : { action: "clear", kind, urn: r.urn, why };
    const inputs = r.inputs ?? {};
    const app = nonEmpty(inputs.app);
    const finding = app
      ? await registry[kind].recovery.find(inputs, app, { platform, since, free })
      : { none: "its inputs do not name an app" };
    if ("none" in finding) {
      plan.push(cleared(finding.none));
      continue;
    }
    const [only, ...others] = finding.candidates;
    if (only && others.length === 0) {
      claimed.add(only.key);
      plan.push({ action: "import", kind, urn: r.urn, id: only.id, what: only.what, ...replacing });
    } else {
      plan.push({
        action: "ambiguous",
        kind,
        urn: r.urn,
        candidates: finding.candidates.map((c) => c.brief),
      });
    }
  }
  return plan;
}
