/**
 * The shape both doors' `VolumeSnapshot` classes share: a component `platform:index:VolumeSnapshot`
 * around the custom resource that takes the snapshot (the dynamic door's `VolumeSnapshotRequest`,
 * the plugin's `platform:index:VolumeSnapshot`), both named as the snapshot. Every release
 * recorded this shape, so a stack moves between the doors with the component matched as it is and
 * only its child's type changing, which the children's type aliases carry over (docs/plugin.md).
 * A custom resource at the top would take the component's URN: the engine matches a resource by
 * URN before its aliases and replaces a component by a custom resource (a new snapshot).
 * @module
 */
import * as pulumi from "@pulumi/pulumi";
import type { OutputsOf } from "../../model/declaration";
import { componentTypeToken } from "../../model/kind";
import { KIND_NAMES } from "../names";
import type { volumeSnapshotDeclaration } from "./declaration";

/** The component's type token (`platform:index:VolumeSnapshot`, the class a program constructs). */
const COMPONENT_TYPE = componentTypeToken({
  component: KIND_NAMES.volumeSnapshot.component ?? KIND_NAMES.volumeSnapshot.className,
});

/** The snapshot's outputs, as its declaration names and documents them (every output of the schema). */
type SnapshotOutputs = OutputsOf<typeof volumeSnapshotDeclaration>;

/** The child that takes the snapshot, in either door. */
export type SnapshotRequest = pulumi.CustomResource & SnapshotOutputs;

/** The outputs of a `VolumeSnapshot`: its request's, as its declaration names them. */
// biome-ignore lint/correctness/noUnusedVariables: a merged interface repeats the class's type parameter
export interface SnapshotComponent<R extends SnapshotRequest> extends SnapshotOutputs {}
/** A `VolumeSnapshot` component; `request` makes its child (whose parent must be the component). */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the interface above only adds the declared outputs' types; the constructor sets each
export abstract class SnapshotComponent<R extends SnapshotRequest> extends pulumi.ComponentResource {
  /** The custom resource that took the snapshot. */
  public readonly request: R;

  protected constructor(
    name: string,
    opts: pulumi.ComponentResourceOptions | undefined,
    request: (parent: pulumi.ComponentResource) => R,
  ) {
    super(COMPONENT_TYPE, name, {}, opts);
    this.request = request(this);
    // Every output the declaration names (the kind's names, read without loading its rules).
    const made = this.request as unknown as Record<string, pulumi.Output<unknown>>;
    const outputs: Record<string, pulumi.Output<unknown>> = {};
    for (const output of KIND_NAMES.volumeSnapshot.outputs) {
      outputs[output] = made[output] as pulumi.Output<unknown>;
    }
    // The request's id is the snapshot id, and stays known while an in-place update of the request
    // is previewed (its outputs do not: a dynamic provider has no update preview). A volume
    // restored from `snapshotId` would otherwise preview as a replacement.
    outputs.snapshotId = this.request.id;
    Object.assign(this, outputs);
    this.registerOutputs(outputs);
  }
}
