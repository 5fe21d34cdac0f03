/**
 * The `Volume` class both doors extend (../../dynamic/classes, ../../plugin/classes): its `Args`,
 * its outputs' types (from ./declaration), and what it does beyond registering.
 * @module
 */
import type * as pulumi from "@pulumi/pulumi";
import type { ArgsOf, OutputsOf } from "../../model/declaration";
import type { Door } from "../../registration/door";
import { KindResource } from "../../registration/kind-resource";
import { KIND_NAMES } from "../names";
import type { volumeDeclaration } from "./declaration";

export type { VolumeComputeArgs, VolumeComputeOutput } from "./declaration";

/**
 * Inputs of a `Volume`. Leaving an optional input out means "the platform's value": it is never a
 * change, so removing `sizeGb` from a program does not plan anything.
 */
export type VolumeArgs = ArgsOf<typeof volumeDeclaration>;

/** The outputs of a volume, as its declaration names them. */
export interface VolumeResource extends OutputsOf<typeof volumeDeclaration> {}
/** A volume of an app, through either door. */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the interface above only adds the declared outputs' types; the engine sets them
export abstract class VolumeResource extends KindResource {
  protected constructor(door: Door, name: string, args: VolumeArgs, opts?: pulumi.CustomResourceOptions) {
    super(door, KIND_NAMES.volume, name, args, opts);
    // The id, which is the volume id: unlike an output, it stays known while an in-place update is
    // previewed (a dynamic provider has no update preview, so the engine then knows only the
    // inputs). A snapshot or fork fed from `volumeId` would otherwise preview as a replacement.
    (this as { volumeId: pulumi.Output<string> }).volumeId = this.id;
  }
}
