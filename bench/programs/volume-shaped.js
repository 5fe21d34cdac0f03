// @ts-check
// What the `fat` and `io` controls share: a class that registers a Volume's properties (its
// outputs and inputs), so the engine sees as many properties as a Volume declares.
const pulumi = require("@pulumi/pulumi");

/** The properties a Volume registers (its outputs and inputs). */
const VOLUME_PROPERTIES = [
  "volumeId",
  "state",
  "zone",
  "attachedMachineId",
  "attachedAllocId",
  "createdAt",
  "blocks",
  "blockSize",
  "blocksFree",
  "blocksAvail",
  "hostDedicationKey",
  "needsRestart",
  "region",
  "sizeGb",
  "encrypted",
  "fstype",
  "autoBackupEnabled",
  "snapshotRetention",
  "snapshotId",
  "sourceVolumeId",
  "machinesOnly",
  "requireUniqueZone",
  "compute",
  "adoptVolumeId",
  "restoreTimeoutSeconds",
];
const UNDECLARED = Object.fromEntries(VOLUME_PROPERTIES.map((k) => [k, undefined]));

class VolumeShaped extends pulumi.dynamic.Resource {
  /**
   * @param {pulumi.dynamic.ResourceProvider} provider
   * @param {string} type
   * @param {string} name
   * @param {Record<string, unknown>} args
   */
  constructor(provider, type, name, args) {
    super(provider, name, { ...UNDECLARED, ...args }, undefined, "bench", type);
  }
}

/**
 * Declares `n` resources of `type` served by `provider`, each with a Volume's program inputs.
 * @param {pulumi.dynamic.ResourceProvider} provider
 * @param {string} type
 * @param {number} n
 */
function declareVolumeShaped(provider, type, n) {
  for (let i = 0; i < n; i++) {
    new VolumeShaped(provider, type, `v${i}`, { app: "demo-app", name: `v${i}`, region: "ord", sizeGb: 1 });
  }
}

module.exports = { VOLUME_PROPERTIES, declareVolumeShaped };
