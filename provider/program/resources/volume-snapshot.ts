/**
 * `VolumeSnapshot`: an on-demand snapshot of a volume (spec 4.3, beta endpoint), as a component
 * around the dynamic resource `VolumeSnapshotRequest` (./snapshot-component).
 * @module
 */
import type * as pulumi from "@pulumi/pulumi";
import type { ArgsOf, OutputsOf } from "../../model/declaration";
import type { volumeSnapshotDeclaration } from "../../kinds/volume-snapshot/declaration";
import { pluginTypeToken, registry } from "../../kinds/registry";
import { warnIfSnapshotSourceChanged } from "./lifetime-warnings";
import { PlatformResource } from "../../classes/registration";
import { SnapshotComponent } from "../../classes/snapshot-component";

/** Inputs of a {@link VolumeSnapshot}. */
export type VolumeSnapshotArgs = ArgsOf<typeof volumeSnapshotDeclaration>;

/** The outputs of a {@link VolumeSnapshotRequest}, as its declaration names them. */
export interface VolumeSnapshotRequest extends OutputsOf<typeof volumeSnapshotDeclaration> {}

/**
 * The dynamic resource that takes the snapshot. Use {@link VolumeSnapshot}; this class is the
 * component's child.
 */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the interface above only adds the declared outputs' types; the engine sets them
export class VolumeSnapshotRequest extends PlatformResource {
  /** Declares the snapshot request; use {@link VolumeSnapshot} instead. */
  constructor(name: string, args: VolumeSnapshotArgs, opts?: pulumi.CustomResourceOptions) {
    // The plugin class's child (./snapshot-component), so a stack moves back from the plugin door
    // with no alias in the program.
    const plugin = { type: pluginTypeToken(registry.volumeSnapshot) };
    super(registry.volumeSnapshot, name, args, { ...opts, aliases: [plugin, ...(opts?.aliases ?? [])] });
  }
}

/**
 * Takes an on-demand snapshot of a volume and waits until it is listed. Change `triggers` to take
 * a new one (a volume already restored from this one is kept: a restore is an event); a snapshot
 * is an event too, so a changed `volumeId` alone (the volume deleted and made again, say) takes
 * none, and preview and up warn. Deleting it changes nothing at the platform (snapshot retention
 * removes snapshots). Once retention has removed the snapshot, refresh records `listed: false`
 * and keeps it in the stack with its `snapshotId`.
 *
 * @example
 * ```ts
 * const snap = new VolumeSnapshot("nightly", { app: "demo-app", volumeId: data.volumeId });
 * new Volume("restored", { app: "demo-app", name: "restored", region: "ord", snapshotId: snap.snapshotId });
 * ```
 */
export class VolumeSnapshot extends SnapshotComponent<VolumeSnapshotRequest> {
  /** Declares a snapshot named `name` in the stack. */
  constructor(name: string, args: VolumeSnapshotArgs, opts?: pulumi.ComponentResourceOptions) {
    super(name, opts, (parent) => new VolumeSnapshotRequest(name, args, { parent }));
    warnIfSnapshotSourceChanged(this.request, args.volumeId);
  }
}
