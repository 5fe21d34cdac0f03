/**
 * The provider objects Pulumi serializes into every resource's state (`__provider`). Each method
 * only loads the real implementation from the installed package at run time, so the serialized
 * text stays a few hundred bytes per method, captures nothing (no token, no module graph), and
 * refresh/destroy always run the installed code. The dynamic provider host evaluates this text
 * with a `require` that resolves from the Pulumi program's directory, where `pulumi-platform` is
 * installed.
 *
 * Do not reference imports or module-level values from these method bodies: anything referenced
 * is captured by value into the state.
 * @module
 */
import type * as pulumi from "@pulumi/pulumi";

/** Provider of `platform:Volume`. */
export const volumeProvider: pulumi.dynamic.ResourceProvider = {
  async configure(req) {
    return require("pulumi-platform/provider/runtime").configure(req);
  },
  async check(olds, news) {
    return require("pulumi-platform/provider/runtime").volume.check(olds, news);
  },
  async diff(id, olds, news) {
    return require("pulumi-platform/provider/runtime").volume.diff(id, olds, news);
  },
  async create(inputs) {
    return require("pulumi-platform/provider/runtime").volume.create(inputs);
  },
  async read(id, props) {
    return require("pulumi-platform/provider/runtime").volume.read(id, props);
  },
  async update(id, olds, news) {
    return require("pulumi-platform/provider/runtime").volume.update(id, olds, news);
  },
  async delete(id, props) {
    return require("pulumi-platform/provider/runtime").volume.delete(id, props);
  },
};

/** Provider of `platform:AcmeCertificate`. */
export const acmeCertificateProvider: pulumi.dynamic.ResourceProvider = {
  async configure(req) {
    return require("pulumi-platform/provider/runtime").configure(req);
  },
  async check(olds, news) {
    return require("pulumi-platform/provider/runtime").acmeCertificate.check(olds, news);
  },
  async diff(id, olds, news) {
    return require("pulumi-platform/provider/runtime").acmeCertificate.diff(id, olds, news);
  },
  async create(inputs) {
    return require("pulumi-platform/provider/runtime").acmeCertificate.create(inputs);
  },
  async read(id, props) {
    return require("pulumi-platform/provider/runtime").acmeCertificate.read(id, props);
  },
  async update(id, olds, news) {
    return require("pulumi-platform/provider/runtime").acmeCertificate.update(id, olds, news);
  },
  async delete(id, props) {
    return require("pulumi-platform/provider/runtime").acmeCertificate.delete(id, props);
  },
};

/** Provider of `platform:CustomCertificate`. */
export const customCertificateProvider: pulumi.dynamic.ResourceProvider = {
  async configure(req) {
    return require("pulumi-platform/provider/runtime").configure(req);
  },
  async check(olds, news) {
    return require("pulumi-platform/provider/runtime").customCertificate.check(olds, news);
  },
  async diff(id, olds, news) {
    return require("pulumi-platform/provider/runtime").customCertificate.diff(id, olds, news);
  },
  async create(inputs) {
    return require("pulumi-platform/provider/runtime").customCertificate.create(inputs);
  },
  async read(id, props) {
    return require("pulumi-platform/provider/runtime").customCertificate.read(id, props);
  },
  async update(id, olds, news) {
    return require("pulumi-platform/provider/runtime").customCertificate.update(id, olds, news);
  },
  async delete(id, props) {
    return require("pulumi-platform/provider/runtime").customCertificate.delete(id, props);
  },
};

/** Provider of `platform:PostgresPasswordRotation`. */
export const postgresPasswordRotationProvider: pulumi.dynamic.ResourceProvider = {
  async configure(req) {
    return require("pulumi-platform/provider/runtime").configure(req);
  },
  async check(olds, news) {
    return require("pulumi-platform/provider/runtime").postgresPasswordRotation.check(olds, news);
  },
  async diff(id, olds, news) {
    return require("pulumi-platform/provider/runtime").postgresPasswordRotation.diff(id, olds, news);
  },
  async create(inputs) {
    return require("pulumi-platform/provider/runtime").postgresPasswordRotation.create(inputs);
  },
  async read(id, props) {
    return require("pulumi-platform/provider/runtime").postgresPasswordRotation.read(id, props);
  },
  async update(id, olds, news) {
    return require("pulumi-platform/provider/runtime").postgresPasswordRotation.update(id, olds, news);
  },
  async delete(id, props) {
    return require("pulumi-platform/provider/runtime").postgresPasswordRotation.delete(id, props);
  },
};

/** Provider of `platform:VolumeSnapshotRequest` (inside the VolumeSnapshot component). */
export const volumeSnapshotProvider: pulumi.dynamic.ResourceProvider = {
  async configure(req) {
    return require("pulumi-platform/provider/runtime").configure(req);
  },
  async check(olds, news) {
    return require("pulumi-platform/provider/runtime").volumeSnapshot.check(olds, news);
  },
  async diff(id, olds, news) {
    return require("pulumi-platform/provider/runtime").volumeSnapshot.diff(id, olds, news);
  },
  async create(inputs) {
    return require("pulumi-platform/provider/runtime").volumeSnapshot.create(inputs);
  },
  async read(id, props) {
    return require("pulumi-platform/provider/runtime").volumeSnapshot.read(id, props);
  },
  async update(id, olds, news) {
    return require("pulumi-platform/provider/runtime").volumeSnapshot.update(id, olds, news);
  },
  async delete(id, props) {
    return require("pulumi-platform/provider/runtime").volumeSnapshot.delete(id, props);
  },
};
