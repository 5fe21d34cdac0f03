/**
 * Applies a recovery plan to an exported checkpoint: a pending create that was identified at the
 * platform becomes a resource with its id and the outputs the provider reads for it; a cleared
 * one is dropped. Pending operations the plan does not name are kept. An identified replacement
 * goes where Pulumi puts one that completed: just before the resource it replaces, which is
 * marked for deletion (the next `up` deletes it), or instead of it when a delete-before-replace
 * already deleted it.
 * @module
 */
import { stubTexts } from "../provider/kinds/stubs";
import {
  type CheckpointResource,
  type ExportedDeployment,
  isPluginType,
  type PendingAction,
} from "./recover-plan";

/**
 * Reads the outputs of an identified resource (the provider's `read`), without `__provider`;
 * undefined when it is gone after all (then the pending create is dropped).
 */
export type ReadOutputs = (
  action: Extract<PendingAction, { action: "import" }>,
  inputs: Record<string, unknown>,
) => Promise<Record<string, unknown> | undefined>;

/** The deployment after `plan`; the argument is not changed. */
export async function applyRecovery(
  exported: ExportedDeployment,
  plan: PendingAction[],
  read: ReadOutputs,
): Promise<ExportedDeployment> {
  const byUrn = new Map(plan.map((p) => [p.urn, p]));
  const resources = [...(exported.deployment.resources ?? [])];
  const pending: NonNullable<ExportedDeployment["deployment"]["pending_operations"]> = [];
  for (const op of exported.deployment.pending_operations ?? []) {
    const step = op.type === "creating" ? byUrn.get(op.resource.urn) : undefined;
    if (!step || step.action === "ambiguous") {
      pending.push(op);
      continue;
    }
    if (step.action === "clear") continue;
    const inputs = op.resource.inputs ?? {};
    const outputs = await read(step, inputs);
    if (!outputs) continue;
    const resource: CheckpointResource = {
      ...op.resource,
      id: step.id,
      outputs: { ...outputs, ...providerText(op.resource, step.kind) },
    };
    if (step.replacing) placeReplacement(resources, resource);
    else resources.push(resource);
  }
  return {
    ...exported,
    deployment: { ...exported.deployment, resources, pending_operations: pending },
  };
}

/**
 * Puts `replacement` into `resources` before the live resource of its URN, which is marked
 * `delete` (or dropped when `pendingReplacement`: a delete-before-replace deleted it already),
 * and after every resource it depends on.
 */
function placeReplacement(resources: CheckpointResource[], replacement: CheckpointResource): void {
  const at = resources.findIndex((r) => r.urn === replacement.urn && r.delete !== true);
  if (at < 0) {
    resources.push(replacement);
    return;
  }
  const [old] = resources.splice(at, 1) as [CheckpointResource];
  const dependencies = new Set(
    Array.isArray(replacement.dependencies) ? (replacement.dependencies as string[]) : [],
  );
  if (typeof replacement.parent === "string") dependencies.add(replacement.parent);
  const lastDependency = resources.reduce((last, r, i) => (dependencies.has(r.urn) ? i : last), -1);
  const place = Math.max(at, lastDependency + 1);
  const kept = old.pendingReplacement === true ? [] : [{ ...old, delete: true }];
  resources.splice(place, 0, replacement, ...kept);
}

/**
 * The `__provider` of an imported resource's outputs, as its door records it after a create: the
 * dynamic host copies it from the inputs; the plugin writes the kind's stub text (so that a stack
 * moved back to the dynamic classes still refreshes and destroys it).
 */
function providerText(resource: CheckpointResource, kind: PendingAction["kind"]): { __provider?: unknown } {
  if (isPluginType(resource.type)) return { __provider: stubTexts[kind] };
  const recorded = resource.inputs?.__provider;
  return recorded === undefined ? {} : { __provider: recorded };
}
