/**
 * pulumi-platform: Pulumi resources for the platform's volumes, certificates, Postgres passwords
 * and snapshots, plus lookups. Credentials: stack config `platform:apiToken` (secret) and
 * `platform:apiUrl`, else PLATFORM_API_TOKEN / PLATFORM_API_URL.
 * @module
 */
import "./compile-cache";

export type {
  AcmeCertificateArgs,
  CustomCertificateArgs,
  PostgresPasswordRotationArgs,
  VolumeArgs,
  VolumeComputeArgs,
  VolumeComputeOutput,
  VolumeSnapshotArgs,
} from "./classes/resources";
export type {
  CertificateEntryOutput,
  CertificateValidationOutput,
  DnsRecordOutput,
  DnsRequirementsOutput,
  IssuedCertificateOutput,
} from "./kinds/certificates/declarations";
export {
  validateAcmeCertificateArgs,
  validateCustomCertificateArgs,
  validatePostgresPasswordRotationArgs,
  validateVolumeArgs,
  validateVolumeSnapshotArgs,
} from "./kinds/declarations";
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
export type { ValidationFailure } from "./model/validation";
export {
  AcmeCertificate,
  CustomCertificate,
  PostgresPasswordRotation,
  Volume,
  VolumeSnapshot,
} from "./program/classes";
export { type RecoverStackOptions, type RecoverStackResult, recoverStack } from "./program/recover-stack";
