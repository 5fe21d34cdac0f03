/**
 * The rules of the ready policy pack, each a CrossGuard `ResourceValidationPolicy` with a default
 * enforcement level and a config schema (defaults included). A team overrides either per policy in
 * the pack's config (`pulumi preview --policy-pack-config`, or the `PolicyPack`'s initial config).
 * Messages name the resource and the input, never a secret or PEM text.
 * @module
 */
import type { EnforcementLevel, ResourceValidationPolicy } from "@pulumi/policy";
import { SNAPSHOT_RETENTION_DEFAULT } from "../../sdk/schemas/volume-constants";
import { certificateExpiryWarning, DEFAULT_EXPIRY_WARNING_DAYS } from "../model/lifetime";
import { parseCertificateChain } from "../model/validation/certificate";
import { validatePlatformResource } from "./resources";

/** Each rule's name and its default enforcement level. */
export const PLATFORM_POLICY_DEFAULTS = {
  "platform-volume-encrypted": "mandatory",
  "platform-volume-auto-backup": "mandatory",
  "platform-volume-snapshot-retention": "mandatory",
  "platform-certificate-expiry": "advisory",
  "platform-rotation-schedule": "mandatory",
  "platform-rotation-alternate-user": "advisory",
} as const satisfies Record<string, EnforcementLevel>;

/** The name of one of the pack's rules. */
export type PlatformPolicyName = keyof typeof PLATFORM_POLICY_DEFAULTS;

/** Default of `minimumDays` of `platform-volume-snapshot-retention`. */
export const DEFAULT_MINIMUM_RETENTION_DAYS = 7;
/** Default of `maximumDays` of `platform-rotation-schedule`. */
export const DEFAULT_MAXIMUM_ROTATION_DAYS = 90;

function days(n: number): string {
  return n === 1 ? "1 day" : `${n} days`;
}

const volumeEncrypted: ResourceValidationPolicy = {
  name: "platform-volume-encrypted",
  description: "Volumes are encrypted (encrypted is not false).",
  enforcementLevel: PLATFORM_POLICY_DEFAULTS["platform-volume-encrypted"],
  validateResource: validatePlatformResource("volume", (volume, _args, reportViolation) => {
    if (volume.encrypted === false) {
      reportViolation(
        `volume ${volume.name} of app ${volume.app} sets encrypted: false; volumes must be encrypted (leave encrypted out or set it to true)`,
      );
    }
  }),
};

const volumeAutoBackup: ResourceValidationPolicy = {
  name: "platform-volume-auto-backup",
  description: "Volumes keep automatic daily snapshots (autoBackupEnabled is not false).",
  enforcementLevel: PLATFORM_POLICY_DEFAULTS["platform-volume-auto-backup"],
  validateResource: validatePlatformResource("volume", (volume, _args, reportViolation) => {
    if (volume.autoBackupEnabled === false) {
      reportViolation(
        `volume ${volume.name} of app ${volume.app} sets autoBackupEnabled: false; volumes must keep automatic daily snapshots (leave it out or set it to true)`,
      );
    }
  }),
};

const volumeSnapshotRetention: ResourceValidationPolicy = {
  name: "platform-volume-snapshot-retention",
  description:
    "Volumes keep snapshots at least `minimumDays` days (snapshotRetention; the platform's default is 5).",
  enforcementLevel: PLATFORM_POLICY_DEFAULTS["platform-volume-snapshot-retention"],
  configSchema: {
    properties: {
      minimumDays: { type: "integer", minimum: 1, maximum: 60, default: DEFAULT_MINIMUM_RETENTION_DAYS },
    },
  },
  validateResource: validatePlatformResource("volume", (volume, args, reportViolation) => {
    const { minimumDays } = args.getConfig<{ minimumDays: number }>();
    const kept = volume.snapshotRetention ?? SNAPSHOT_RETENTION_DEFAULT;
    if (kept >= minimumDays) return;
    const given =
      volume.snapshotRetention === undefined
        ? `leaves snapshotRetention out (the platform keeps snapshots ${days(kept)})`
        : `sets snapshotRetention: ${kept}`;
    reportViolation(
      `volume ${volume.name} of app ${volume.app} ${given}; snapshots must be kept at least ${days(minimumDays)}: set snapshotRetention to ${minimumDays} or more`,
    );
  }),
};

const certificateExpiry: ResourceValidationPolicy = {
  name: "platform-certificate-expiry",
  description: "Custom certificates are valid for at least `minimumDaysLeft` more days.",
  enforcementLevel: PLATFORM_POLICY_DEFAULTS["platform-certificate-expiry"],
  configSchema: {
    properties: {
      minimumDaysLeft: { type: "integer", minimum: 0, maximum: 365, default: DEFAULT_EXPIRY_WARNING_DAYS },
    },
  },
  validateResource: validatePlatformResource("customCertificate", (cert, args, reportViolation) => {
    const { minimumDaysLeft } = args.getConfig<{ minimumDaysLeft: number }>();
    let expiresAt: string;
    try {
      const leaf = parseCertificateChain(cert.fullchain)[0];
      if (!leaf) return;
      expiresAt = new Date(leaf.validTo).toISOString();
    } catch {
      return; // the resource's own check refuses a chain that does not parse
    }
    const warning = certificateExpiryWarning(cert.hostname, expiresAt, new Date(), minimumDaysLeft);
    if (warning) reportViolation(`${warning} (this policy asks for ${days(minimumDaysLeft)} left)`);
  }),
};

const rotationSchedule: ResourceValidationPolicy = {
  name: "platform-rotation-schedule",
  description: "Postgres passwords rotate on a schedule of at most `maximumDays` days (rotationDays).",
  enforcementLevel: PLATFORM_POLICY_DEFAULTS["platform-rotation-schedule"],
  configSchema: {
    properties: {
      maximumDays: { type: "integer", minimum: 1, maximum: 3650, default: DEFAULT_MAXIMUM_ROTATION_DAYS },
    },
  },
  validateResource: validatePlatformResource(
    "postgresPasswordRotation",
    (rotation, args, reportViolation) => {
      const { maximumDays } = args.getConfig<{ maximumDays: number }>();
      const who = `the password rotation of ${rotation.username} in cluster ${rotation.clusterId}`;
      if (rotation.rotationDays === undefined) {
        reportViolation(
          `${who} has no rotationDays, so it only rotates when an input changes; set rotationDays to at most ${maximumDays}`,
        );
      } else if (rotation.rotationDays > maximumDays) {
        reportViolation(
          `${who} sets rotationDays: ${rotation.rotationDays}; passwords must rotate at least every ${days(maximumDays)}`,
        );
      }
    },
  ),
};

const rotationAlternateUser: ResourceValidationPolicy = {
  name: "platform-rotation-alternate-user",
  description:
    "Postgres password rotations alternate between two users (alternateUsername), so the credential an app holds stays valid across a rotation; with `scheduledOnly` (default) only rotations with rotationDays need it.",
  enforcementLevel: PLATFORM_POLICY_DEFAULTS["platform-rotation-alternate-user"],
  configSchema: {
    properties: {
      scheduledOnly: { type: "boolean", default: true },
    },
  },
  validateResource: validatePlatformResource("postgresPasswordRotation", (inputs, args, reportViolation) => {
    const { scheduledOnly } = args.getConfig<{ scheduledOnly: boolean }>();
    if (scheduledOnly && inputs.rotationDays === undefined) return;
    if (inputs.alternateUsername !== undefined && inputs.alternateUsername !== null) return;
    reportViolation(
      `the password rotation of ${inputs.username} in cluster ${inputs.clusterId} has no alternateUsername: every rotation ends the password the app is using; set alternateUsername to a second user of the cluster`,
    );
  }),
};

/**
 * The pack's rules, with their default enforcement levels:
 *
 * | Rule | Config (default) | Enforcement |
 * |---|---|---|
 * | `platform-volume-encrypted` | | mandatory |
 * | `platform-volume-auto-backup` | | mandatory |
 * | `platform-volume-snapshot-retention` | `minimumDays` (7) | mandatory |
 * | `platform-certificate-expiry` | `minimumDaysLeft` (30) | advisory |
 * | `platform-rotation-schedule` | `maximumDays` (90) | mandatory |
 * | `platform-rotation-alternate-user` | `scheduledOnly` (true) | advisory |
 */
export function platformPolicies(): ResourceValidationPolicy[] {
  return [
    volumeEncrypted,
    volumeAutoBackup,
    volumeSnapshotRetention,
    certificateExpiry,
    rotationSchedule,
    rotationAlternateUser,
  ].map((policy) => ({ ...policy }));
}
