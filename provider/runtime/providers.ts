/**
 * One object per resource with the methods of a Pulumi dynamic ResourceProvider, assembled from
 * the per-resource modules (which name `delete` as `remove`, a reserved word as a function name).
 * @module
 */
import * as acme from "./acme-certificate";
import { noteProgramOperation } from "./credentials";
import * as custom from "./custom-certificate";
import * as rotation from "./postgres-password-rotation";
import { withVersion } from "./version";
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

/**
 * One method as the engine calls it. Every error it throws ends with the package version (see
 * ./version). `program`: check, create and update run only when the program ran, i.e. when
 * `configure` got the current stack config (refresh and destroy get the config recorded in the
 * state), which a refused token's advice depends on.
 */
function method<F>(fn: F, program = false): F {
  if (typeof fn !== "function") return fn;
  return (async (...args: unknown[]) => {
    if (program) noteProgramOperation();
    try {
      return await (fn as (...a: unknown[]) => unknown)(...args);
    } catch (err) {
      throw withVersion(err);
    }
  }) as F;
}

function provider<M extends ResourceModule>(
  m: M,
): Pick<M, "check" | "diff" | "create" | "read" | "update"> & { delete: M["remove"] } {
  return {
    check: method(m.check, true),
    diff: method(m.diff),
    create: method(m.create, true),
    read: method(m.read),
    update: method(m.update, true),
    delete: method(m.remove),
  };
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
