/**
 * Applies a recovery plan to an exported checkpoint: a pending create that was identified at the
 * platform becomes a resource with its id and the outputs the provider reads for it; a cleared
 * one is dropped. Pending operations the plan does not name are kept.
 * @module
 */
import type { CheckpointResource, ExportedDeployment, PendingAction } from "./recover-plan";

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
      outputs: { ...outputs, ...(inputs.__provider === undefined ? {} : { __provider: inputs.__provider }) },
    };
    resources.push(resource);
  }
  return {
    ...exported,
    deployment: { ...exported.deployment, resources, pending_operations: pending },
  };
}
