/**
 * A `Volume` as a create would give it, for `pulumi-platform/testing`: the platform's answer made
 * up as the emulator makes it (spec 2.2), mapped to outputs by the runtime's own mapping.
 * @module
 */

import type { Volume as WireVolume } from "../../../sdk/schemas/volume";
import { SNAPSHOT_RETENTION_DEFAULT } from "../../../sdk/schemas/volume-constants";
import { randomId, stableHex } from "../../../sdk/simulation/ids";
import type { Mocker } from "../../model/mocking";
import type { volumeDeclaration } from "./declaration";
import { programRecord, volumeOutputs } from "./mapping";

/** The size of a new volume that names none (spec 2.2). */
const DEFAULT_SIZE_GB = 3;

/** A new volume: restoring when made from a snapshot, else created; attached to nothing. */
export const volumeMock: Mocker<typeof volumeDeclaration> = (_declaration, inputs, ctx) => {
  const region = inputs.region ?? ctx.region;
  const answered: WireVolume = {
    id: randomId("vol_"),
    name: inputs.name,
    state: inputs.snapshotId === undefined ? "created" : "restoring",
    size_gb: inputs.sizeGb ?? DEFAULT_SIZE_GB,
    region,
    zone: stableHex(4, "zone", region, "0"),
    encrypted: inputs.encrypted ?? true,
    attached_machine_id: null,
    attached_alloc_id: null,
    created_at: ctx.now.toISOString(),
    blocks: 0,
    block_size: 4096,
    blocks_free: 0,
    blocks_avail: 0,
    fstype: inputs.fstype ?? "ext4",
    snapshot_retention: inputs.snapshotRetention ?? SNAPSHOT_RETENTION_DEFAULT,
    auto_backup_enabled: inputs.autoBackupEnabled ?? true,
    host_dedication_key: "",
  };
  const {
    programInputs: _,
    programSizeGb: __,
    ...outputs
  } = volumeOutputs(answered, inputs, programRecord(inputs), { needsRestart: false });
  return { id: answered.id, outputs };
};
