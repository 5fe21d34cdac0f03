/**
 * pulumi-platform: Pulumi resources for the platform's volumes, certificates, Postgres passwords
 * and snapshots, plus lookups. Credentials: stack config `platform:apiToken` (secret) and
 * `platform:apiUrl`, else PLATFORM_API_TOKEN / PLATFORM_API_URL.
 * @module
 */
import "./compile-cache";

export {
  validateAcmeCertificateArgs,
  validateCustomCertificateArgs,
  validatePostgresPasswordRotationArgs,
  validateVolumeArgs,
  validateVolumeSnapshotArgs,
} from "./kinds/validate-args";
export type {
  CertificateEntryOutput,
  CertificateValidationOutput,
  DnsRecordOutput,
  DnsRequirementsOutput,
  IssuedCertificateOutput,
} from "./kinds/certificates/declarations";
export type { ValidationFailure } from "./model/validation";
export {
  type CertificateCheckInfo,
  type CertificateInfo,
  type CertificateSummary,
  checkCertificate,
  type DnsRecordsInfo,
  getCertificate,
  getVolume,
  type LookupCredentials,
  listCertificates,
  listSnapshots,
  listVolumes,
  type SnapshotInfo,
  type VolumeInfo,
} from "./lookups";
export { type RecoverStackOptions, type RecoverStackResult, recoverStack } from "./program/recover-stack";
export { AcmeCertificate, type AcmeCertificateArgs } from "./program/resources/acme-certificate";
export { CustomCertificate, type CustomCertificateArgs } from "./program/resources/custom-certificate";
export {
  PostgresPasswordRotation,
  type PostgresPasswordRotationArgs,
} from "./program/resources/postgres-password-rotation";
export {
  Volume,
  type VolumeArgs,
  type VolumeComputeArgs,
  type VolumeComputeOutput,
} from "./program/resources/volume";
export { VolumeSnapshot, type VolumeSnapshotArgs } from "./program/resources/volume-snapshot";
