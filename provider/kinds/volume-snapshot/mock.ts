/**
 * A `VolumeSnapshot` as a create would give it, for `pulumi-platform/testing`: the backup record
 * and the list entry made up as the emulator makes them (spec 2.3, 2.4), mapped to outputs by the
 * runtime's own mapping.
 * @module
 */

import type { Backup, Snapshot } from "../../../sdk/schemas/volume";
import { SNAPSHOT_RETENTION_DEFAULT } from "../../../sdk/schemas/volume-constants";
import { randomId, stableHex } from "../../../sdk/simulation/ids";
import type { Mocker } from "../../model/mocking";
import type { volumeSnapshotDeclaration } from "./declaration";
import { backupFields, snapshotInfo, snapshotOutputs } from "./mapping";

/** A snapshot just taken, already listed. */
export const volumeSnapshotMock: Mocker<typeof volumeSnapshotDeclaration> = (_declaration, inputs, ctx) => {
  const id = randomId("vs_");
  const at = ctx.now.toISOString();
  const backup: Backup = {
    id: randomId("bkp_"),
    app_id: null,
    volume_id: inputs.volumeId,
    state: "prepare",
    type: "BACKUP_TYPE_ON_DEMAND",
    message: "",
    created_at: at,
    updated_at: at,
    finished_at: null,
    graph_id: id,
  };
  const listed: Snapshot = {
    id,
    size: 0,
    digest: `sha256:${stableHex(64, id)}`,
    created_at: at,
    retention_days: SNAPSHOT_RETENTION_DEFAULT,
  };
  const outputs = snapshotOutputs(inputs, backupFields(backup), snapshotInfo(listed), {
    listed: true,
    lastSeenAt: at,
  });
  return { id, outputs };
};
