/**
 * Typed clients of the platform: the remote API ({@link PlatformClient}), the local task socket
 * ({@link TaskClient}) and a database node's event stream ({@link subscribeEvents},
 * {@link ReplicationTracker}). Knows nothing of Pulumi.
 * @module
 */
export type { ListCertificatesOptions, WaitUntilActiveOptions } from "./certificates";
export { CertificatesClient } from "./certificates";
export type { PlatformClientOptions } from "./client";
export { PlatformClient } from "./client";
export type { PlatformErrorCode, TakeOverCandidate } from "./errors";
export {
  AmbiguousRequestError,
  AmbiguousTakeOverError,
  ApiError,
  EventParseError,
  InvalidArgumentError,
  isGone,
  isNotFound,
  isRetryable,
  lostAnswerText,
  PlatformError,
  ResponseValidationError,
  TimeoutError,
  TransportError,
} from "./errors";
export type {
  PrimaryTrackerOptions,
  ReconnectOptions,
  ReplicationPosition,
  SubscribeOptions,
} from "./events";
export {
  compareTxId,
  databaseSizeBytes,
  isInit,
  isPrimaryChange,
  isTx,
  PrimaryTracker,
  replicationPosition,
  subscribeEvents,
} from "./events";
export { sendLookingAfterLoss } from "./lost-answer";
export type { RotatePasswordOptions } from "./postgres";
export { PostgresClient } from "./postgres";
export type { PostgresErrorReason } from "./postgres-errors";
export type { ReplicationTrackerOptions, TrackerWaitOptions, WaitForPositionOptions } from "./replication";
export {
  ReplicationDivergedError,
  ReplicationStoppedError,
  ReplicationTracker,
  waitForPosition,
} from "./replication";
export type { LookVerdict } from "./retry-policy";
export { earliestMadeAt, lookVerdict, RETRY_POLICY } from "./retry-policy";
export type {
  Backup,
  CertificateCheckResponse,
  CertificateDetails,
  CertificateEntry,
  CertificateListEntry,
  CertificateListResponse,
  CreateVolumeRequest,
  CustomCertificateRequest,
  DnsRecords,
  DnsRequirements,
  ExtendVolumeResponse,
  InitEvent,
  PlatformEvent,
  PostgresCredentials,
  PrimaryChangeEvent,
  Snapshot,
  Task,
  TaskExpire,
  TxEvent,
  UnknownEvent,
  UpdateVolumeRequest,
  Volume,
  VolumeState,
} from "./schemas";
export {
  DEFAULT_FSTYPE,
  isKnownRegion,
  isRetiredRegion,
  PLATFORM_REGIONS,
  REGION_CODE,
  RETIRED_REGIONS,
} from "./schemas";
export type { HoldOptions, TaskHold } from "./task-hold";
export type { TaskClientOptions } from "./tasks";
export { TaskClient } from "./tasks";
export type { TokenSource } from "./token-source";
export type { CallOptions, DebugEntry } from "./transport";
export type { TakeOver, UnknownCreate } from "./volume-ledger";
export { VolumesClient } from "./volumes";
export type { WaitOptions } from "./wait";
