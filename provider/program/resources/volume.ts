/**
 * `Volume`: a persistent storage volume of an app (spec 2.2, 4.3). Inputs and outputs are
 * declared in ../declarations/volume.
 * @module
 */
import type * as pulumi from "@pulumi/pulumi";
import type { ArgsOf, OutputsOf } from "../../model/declaration";
import type { volumeDeclaration } from "../../kinds/volume/declaration";
import { registry } from "../../kinds/registry";
import { warnIfGrownElsewhere, warnIfSourceChanged } from "./lifetime-warnings";
import { PlatformResource } from "../../classes/registration";

export type { VolumeComputeArgs, VolumeComputeOutput } from "../../kinds/volume/declaration";

/**
 * Inputs of a {@link Volume}. Leaving an optional input out means "the platform's value": it is
 * never a change, so removing `sizeGb` from a program does not plan anything.
 */
export type VolumeArgs = ArgsOf<typeof volumeDeclaration>;

/** The outputs of a {@link Volume}, as its declaration names them. */
export interface Volume extends OutputsOf<typeof volumeDeclaration> {}

/**
 * A volume of an app. Growth of `sizeGb` and changes of `snapshotRetention` or
 * `autoBackupEnabled` are applied in place (one update does both); identity inputs replace it.
 * Refresh reports size, retention or backup changes made elsewhere, and a deleted volume. A volume
 * grown elsewhere beyond `sizeGb` keeps its size: no change is planned, and preview and up warn.
 *
 * @example
 * ```ts
 * const data = new Volume("data", { app: "demo-app", name: "data", region: "ord", sizeGb: 10 });
 * ```
 */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the interface above only adds the declared outputs' types; the engine sets them
export class Volume extends PlatformResource {
  /** Declares a volume named `name` in the stack. */
  constructor(name: string, args: VolumeArgs, opts?: pulumi.CustomResourceOptions) {
    super(registry.volume, name, args, opts);
    // The id, which is the volume id: unlike an output, it stays known while an in-place update is
    // previewed (a dynamic provider has no update preview, so the engine then knows only the
    // inputs). A snapshot or fork fed from `volumeId` would otherwise preview as a replacement.
    (this as { volumeId: pulumi.Output<string> }).volumeId = this.id;
    warnIfGrownElsewhere(
      this,
      args.sizeGb,
      args.snapshotId !== undefined || args.sourceVolumeId !== undefined,
    );
    warnIfSourceChanged(this, "sourceVolumeId", args.sourceVolumeId);
    warnIfSourceChanged(this, "snapshotId", args.snapshotId);
  }
}
