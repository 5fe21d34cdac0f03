/**
 * The provider objects Pulumi serializes into every resource's state (`__provider`). Each method
 * only loads the real implementation from the installed package at run time, so the serialized
 * text stays a few hundred bytes per method, captures nothing but the resource's name (no token,
 * no module graph), and refresh/destroy always run the installed code. The dynamic provider host
 * evaluates this text with a `require` that resolves from the Pulumi program's directory, where
 * `pulumi-platform` is installed.
 *
 * Do not reference imports or module-level values from the method bodies: anything referenced
 * is captured by value into the state. The `resource` parameter is a short string, captured as is.
 * @module
 */
import type * as pulumi from "@pulumi/pulumi";
import type * as runtimeProviders from "./runtime/providers";

/** The name under which `pulumi-platform/provider/runtime` exports a resource's methods. */
type RuntimeResource = keyof typeof runtimeProviders;

function runtimeProvider(resource: RuntimeResource): pulumi.dynamic.ResourceProvider {
  return {
    async configure(req) {
      return require("pulumi-platform/provider/runtime").configure(req);
    },
    async check(olds, news) {
      return require("pulumi-platform/provider/runtime")[resource].check(olds, news);
    },
    async diff(id, olds, news) {
      return require("pulumi-platform/provider/runtime")[resource].diff(id, olds, news);
    },
    async create(inputs) {
      return require("pulumi-platform/provider/runtime")[resource].create(inputs);
    },
    async read(id, props) {
      return require("pulumi-platform/provider/runtime")[resource].read(id, props);
    },
    async update(id, olds, news) {
      return require("pulumi-platform/provider/runtime")[resource].update(id, olds, news);
    },
    async delete(id, props) {
      return require("pulumi-platform/provider/runtime")[resource].delete(id, props);
    },
  };
}

/** Provider of `platform:Volume`. */
export const volumeProvider = runtimeProvider("volume");
/** Provider of `platform:AcmeCertificate`. */
export const acmeCertificateProvider = runtimeProvider("acmeCertificate");
/** Provider of `platform:CustomCertificate`. */
export const customCertificateProvider = runtimeProvider("customCertificate");
/** Provider of `platform:PostgresPasswordRotation`. */
export const postgresPasswordRotationProvider = runtimeProvider("postgresPasswordRotation");
/** Provider of `platform:VolumeSnapshotRequest` (inside the VolumeSnapshot component). */
export const volumeSnapshotProvider = runtimeProvider("volumeSnapshot");
