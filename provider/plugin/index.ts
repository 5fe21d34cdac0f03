/**
 * `pulumi-platform/plugin`: the plugin door. The same resources, args and outputs as the package
 * root's dynamic classes, registered as `platform:index:<Type>` and served by the provider plugin
 * `pulumi-resource-platform` (shipped in this package: on PATH from `node_modules/.bin`). See
 * docs/plugin.md for which door to choose and how to move a stack between them.
 * @module
 */
export {
  AcmeCertificate,
  CustomCertificate,
  PostgresPasswordRotation,
  Volume,
  VolumeSnapshot,
} from "./classes";
