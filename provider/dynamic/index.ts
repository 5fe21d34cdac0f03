/**
 * The dynamic door, all a TypeScript program imports from the package root: the classes (their
 * resources served by Pulumi's dynamic provider host), their `Args` and output types, each kind's
 * `validate…Args`, and the lookups.
 * @module
 */
export type {
  CertificateEntryOutput,
  CertificateValidationOutput,
  DnsRecordOutput,
  DnsRequirementsOutput,
  IssuedCertificateOutput,
} from "../kinds/certificates/declarations";
export type { VolumeComputeArgs, VolumeComputeOutput } from "../kinds/volume/class";
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
// Each kind's class, `Args` and `validate…Args` (generated).
export * from "./kind-exports";
export { type RecoverStackOptions, type RecoverStackResult, recoverStack } from "./recover-stack";
