/**
 * What each kind's resource would hold after a create at the platform, made up the way the
 * emulator makes it (its ids, DNS requirements, password and certificate rules) and mapped to
 * outputs by the same mappings the runtime uses, typed by each declaration so that a new output
 * is named by the compiler here too. For unit tests of a program (see ./mocks).
 * @module
 */

import type { CertificateDetails } from "../../sdk/schemas/certificate";
import { SNAPSHOT_RETENTION_DEFAULT } from "../../sdk/schemas/volume-constants";
import { validateCustomCertificate } from "../../sdk/simulation/custom-certificate-rules";
import { DEFAULT_ORG, DEFAULT_REGION } from "../../sdk/simulation/defaults";
import { dnsRequirements } from "../../sdk/simulation/dns-requirements";
import { randomId, stableHex, strongPassword } from "../../sdk/simulation/ids";
import { certificateReport } from "../kinds/certificates/mapping";
import type { ResourceKey, registry } from "../kinds/registry";
import {
  type InputValues,
  type OutputValues,
  type ResourceDeclaration,
  storedInputs,
} from "../model/declaration";
import { DAY_MS, daysUntil } from "../model/lifetime";

type Declaration<K extends ResourceKey> = (typeof registry)[K]["declaration"];

/** A mocked resource: its id and its outputs. */
export interface MockedResource<K extends ResourceKey> {
  id: string;
  outputs: OutputValues<Declaration<K>>;
}

/** What the mocks know beyond the inputs: the time, and the platform's defaults for an app. */
export interface MockContext {
  now: Date;
  /** Region of a volume that names none (the app's primary region at the platform). */
  region: string;
  /** The organization whose ownership TXT value a hostname's DNS requirements carry. */
  org: string;
}

/** Defaults of {@link MockContext}: the emulator's seed app's region and organization. */
export const DEFAULT_MOCK_PLATFORM = { region: DEFAULT_REGION, org: DEFAULT_ORG };

/** The size of a new volume that names none (spec 2.2). */
const DEFAULT_SIZE_GB = 3;

function stored<D extends ResourceDeclaration>(
  declaration: D,
  inputs: InputValues<D>,
): Partial<OutputValues<D>> {
  const values = inputs as Record<string, unknown>;
  return Object.fromEntries(
    storedInputs(declaration)
      .filter((k) => values[k] !== undefined)
      .map((k) => [k, values[k]]),
  ) as Partial<OutputValues<D>>;
}

type Mocker<K extends ResourceKey> = (
  declaration: Declaration<K>,
  inputs: InputValues<Declaration<K>>,
  ctx: MockContext,
) => MockedResource<K>;

const volume: Mocker<"volume"> = (declaration, inputs, ctx) => {
  const id = randomId("vol_");
  const region = inputs.region ?? ctx.region;
  return {
    id,
    outputs: {
      ...stored(declaration, inputs),
      volumeId: id,
      name: inputs.name,
      state: inputs.snapshotId === undefined ? "created" : "restoring",
      sizeGb: inputs.sizeGb ?? DEFAULT_SIZE_GB,
      region,
      zone: stableHex(4, "zone", region, "0"),
      encrypted: inputs.encrypted ?? true,
      attachedMachineId: null,
      attachedAllocId: null,
      createdAt: ctx.now.toISOString(),
      blocks: 0,
      blockSize: 4096,
      blocksFree: 0,
      blocksAvail: 0,
      fstype: inputs.fstype ?? "ext4",
      snapshotRetention: inputs.snapshotRetention ?? SNAPSHOT_RETENTION_DEFAULT,
      autoBackupEnabled: inputs.autoBackupEnabled ?? true,
      hostDedicationKey: "",
      needsRestart: false,
    },
  };
};

/** A hostname record right after the request: nothing validated yet. */
function hostnameRecord(
  app: string,
  hostname: string,
  ctx: MockContext,
  record: Pick<CertificateDetails, "status" | "acme_requested" | "certificates">,
): CertificateDetails {
  return {
    hostname,
    configured: false,
    dns_provider: null,
    rate_limited_until: null,
    validation: {
      dns_configured: false,
      alpn_configured: false,
      http_configured: false,
      ownership_txt_configured: false,
    },
    dns_requirements: dnsRequirements(app, ctx.org, hostname),
    validation_errors: [],
    ...record,
  };
}

const acmeCertificate: Mocker<"acmeCertificate"> = (declaration, inputs, ctx) => ({
  id: inputs.hostname,
  outputs: {
    ...stored(declaration, inputs),
    app: inputs.app,
    ...certificateReport(
      hostnameRecord(inputs.app, inputs.hostname, ctx, {
        status: "pending_validation",
        acme_requested: true,
        certificates: [],
      }),
    ),
  },
});

const customCertificate: Mocker<"customCertificate"> = (declaration, inputs, ctx) => {
  // The platform's own import rules (the resource's check has passed already).
  const leaf = validateCustomCertificate(
    inputs.hostname,
    inputs.fullchain,
    inputs.privateKey,
    ctx.now.getTime(),
  );
  const expiresAt = new Date(leaf.validTo).toISOString();
  const details = hostnameRecord(inputs.app, inputs.hostname, ctx, {
    status: "pending_ownership",
    acme_requested: false,
    certificates: [
      {
        source: "custom",
        status: "pending_ownership",
        created_at: ctx.now.toISOString(),
        expires_at: expiresAt,
        issuer: leaf.issuer,
        issued: [],
      },
    ],
  });
  return {
    id: inputs.hostname,
    outputs: {
      ...stored(declaration, inputs),
      app: inputs.app,
      ...certificateReport(details),
      expiresAt,
      expiresInDays: daysUntil(expiresAt, ctx.now),
      issuer: leaf.issuer,
    },
  };
};

const postgresPasswordRotation: Mocker<"postgresPasswordRotation"> = (declaration, inputs, ctx) => {
  const rotatedAt = ctx.now.toISOString();
  return {
    id: `${inputs.clusterId}/${inputs.username}/${rotatedAt}`,
    outputs: {
      ...stored(declaration, inputs),
      username: inputs.username,
      password: strongPassword(),
      // The first rotation: there is no previous credential yet, with or without alternateUsername.
      previousUsername: null,
      previousPassword: null,
      rotatedAt,
      nextRotationAt:
        inputs.rotationDays === undefined
          ? null
          : new Date(ctx.now.getTime() + inputs.rotationDays * DAY_MS).toISOString(),
    },
  };
};

const volumeSnapshot: Mocker<"volumeSnapshot"> = (declaration, inputs, ctx) => {
  const id = randomId("vs_");
  const at = ctx.now.toISOString();
  return {
    id,
    outputs: {
      ...stored(declaration, inputs),
      backupId: randomId("bkp_"),
      snapshotId: id,
      state: "prepare",
      backupType: "BACKUP_TYPE_ON_DEMAND",
      backupCreatedAt: at,
      listed: true,
      lastSeenAt: at,
      size: 0,
      digest: `sha256:${stableHex(64, id)}`,
      createdAt: at,
      retentionDays: SNAPSHOT_RETENTION_DEFAULT,
    },
  };
};

/** Each kind's made-up create. */
export const mockers: { readonly [K in ResourceKey]: Mocker<K> } = {
  volume,
  acmeCertificate,
  customCertificate,
  postgresPasswordRotation,
  volumeSnapshot,
};
