/**
 * One provider object per resource, as the serialized stubs load them (see ../stubs.ts).
 * @module
 */
export { acmeCertificate } from "./acme-certificate";
export { customCertificate } from "./custom-certificate";
export { postgresPasswordRotation } from "./postgres-password-rotation";
export { volume } from "./volume";
/** VolumeSnapshotRequest, the dynamic resource of the VolumeSnapshot component. */
export { volumeSnapshot } from "./volume-snapshot";
