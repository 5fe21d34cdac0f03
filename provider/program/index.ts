/**
 * The dynamic door, all a TypeScript program imports from the package root: the classes (their
 * resources served by Pulumi's dynamic provider host), their `Args` and output types, each kind's
 * `validate…Args`, and the lookups.
 * @module
 */
export type { AcmeCertificateArgs, CustomCertificateArgs } from "../kinds/certificates/classes";
export type {
  CertificateEntryOutput,
  CertificateValidationOutput,
  DnsRecordOutput,
  DnsRequirementsOutput,
  IssuedCertificateOutput,
} from "../kinds/certificates/declarations";
export {
  validateAcmeCertificateArgs,
  validateCustomCertificateArgs,
  validatePostgresPasswordRotationArgs,
  validateVolumeArgs,
  validateVolumeSnapshotArgs,
} from "../kinds/declarations";
export type { PostgresPasswordRotationArgs } from "../kinds/postgres-password-rotation/class";
export type { VolumeArgs, VolumeComputeArgs, VolumeComputeOutput } from "../kinds/volume/class";
export type { VolumeSnapshotArgs } from "../kinds/volume-snapshot/class";
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
} from "../lookups";
export type { ValidationFailure } from "../model/validation";
export {
  AcmeCertificate,
  CustomCertificate,
  PostgresPasswordRotation,
  Volume,
  VolumeSnapshot,
} from "./classes";
export { type RecoverStackOptions, type RecoverStackResult, recoverStack } from "./recover-stack";
