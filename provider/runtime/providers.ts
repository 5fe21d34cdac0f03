/**
 * One object per resource with the methods of a Pulumi dynamic ResourceProvider, assembled from
 * the per-resource modules (which name `delete` as `remove`, a reserved word as a function name).
 * @module
 */
import * as acme from "./acme-certificate";
import * as custom from "./custom-certificate";
import * as rotation from "./postgres-password-rotation";
import * as vol from "./volume";
import * as snapshot from "./volume-snapshot";

interface ResourceModule {
  check: unknown;
  diff: unknown;
  create: unknown;
  read: unknown;
  update: unknown;
  remove: unknown;
}

function provider<M extends ResourceModule>(
  m: M,
): Pick<M, "check" | "diff" | "create" | "read" | "update"> & { delete: M["remove"] } {
  return { check: m.check, diff: m.diff, create: m.create, read: m.read, update: m.update, delete: m.remove };
}

/** Volume. */
export const volume = provider(vol);
/** AcmeCertificate. */
export const acmeCertificate = provider(acme);
/** CustomCertificate. */
export const customCertificate = provider(custom);
/** PostgresPasswordRotation. */
export const postgresPasswordRotation = provider(rotation);
/** VolumeSnapshotRequest, the dynamic resource of the VolumeSnapshot component. */
export const volumeSnapshot = provider(snapshot);
