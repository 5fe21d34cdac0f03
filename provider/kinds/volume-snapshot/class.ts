/**
 * The snapshot request class both doors extend (../../dynamic/classes, ../../plugin/classes): the
 * custom resource that takes the snapshot, the child of the `VolumeSnapshot` component
 * (./component); its `Args` and outputs' types (from ./declaration).
 * @module
 */
import type * as pulumi from "@pulumi/pulumi";
import type { ArgsOf, OutputsOf } from "../../model/declaration";
import type { Door } from "../../registration/door";
import { KindResource } from "../../registration/kind-resource";
import { KIND_NAMES } from "../names";
import type { volumeSnapshotDeclaration } from "./declaration";

/** Inputs of a `VolumeSnapshot`. */
export type VolumeSnapshotArgs = ArgsOf<typeof volumeSnapshotDeclaration>;

/** The outputs of a snapshot request, as its declaration names them. */
export interface VolumeSnapshotRequestResource extends OutputsOf<typeof volumeSnapshotDeclaration> {}
/** The custom resource that takes a snapshot, the child of the `VolumeSnapshot` component. */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the interface above only adds the declared outputs' types; the engine sets them
export abstract class VolumeSnapshotRequestResource extends KindResource {
  protected constructor(
    door: Door,
    name: string,
    args: VolumeSnapshotArgs,
    opts?: pulumi.CustomResourceOptions,
  ) {
    super(door, KIND_NAMES.volumeSnapshot, name, args, opts);
  }
}
