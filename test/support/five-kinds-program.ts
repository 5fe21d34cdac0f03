/**
 * A program with every kind, as a user writes it, for either door's classes: the app and the
 * custom certificate's key from secret config, a rotation's cluster and triggers wrapped in
 * `pulumi.secret`, a snapshot of one volume restored into another.
 */
import * as pulumi from "@pulumi/pulumi";
import type * as root from "../../provider/dynamic";
import type { ResourceKey, registry } from "../../provider/kinds/registry";
import type * as plugin from "../../provider/plugin";

/** The class of each registry kind: its type, or the component around it. */
type ClassName = {
  [K in ResourceKey]: (typeof registry)[K] extends { readonly component: infer C extends string }
    ? C
    : (typeof registry)[K]["type"];
}[ResourceKey];

/** The classes of one door (`pulumi-platform` or `pulumi-platform/plugin`): every registry kind's. */
export type DoorClasses = Pick<typeof root | typeof plugin, ClassName>;

/** The config the program reads, under its project `project`: `app` and `tlsKey` are secrets. */
export function fiveKindsConfig(tls: { cert: string; key: string }) {
  return {
    config: { "project:app": "shop", "project:tlsChain": tls.cert, "project:tlsKey": tls.key },
    secretKeys: ["project:app", "project:tlsKey"],
  };
}

/** Runs the program with `door`'s classes; returns its resources. */
export function fiveKindsProgram(door: DoorClasses) {
  const config = new pulumi.Config();
  const app = config.requireSecret("app");
  const data = new door.Volume("data", { app, name: "data", sizeGb: 10, snapshotRetention: 14 });
  const nightly = new door.VolumeSnapshot("nightly", {
    app,
    volumeId: data.volumeId,
    triggers: { day: "1" },
  });
  const restored = new door.Volume("restored", {
    app,
    name: "restored",
    region: "iad",
    snapshotId: nightly.snapshotId,
  });
  const www = new door.AcmeCertificate("www", { app, hostname: "www.example.com" });
  const shop = new door.CustomCertificate("shop", {
    app,
    hostname: "shop.example.com",
    fullchain: config.require("tlsChain"),
    privateKey: config.requireSecret("tlsKey"),
  });
  const db = new door.PostgresPasswordRotation("db", {
    clusterId: pulumi.secret("pg-main"),
    username: "app_user",
    rotationDays: 30,
    triggers: { reason: pulumi.secret("first") },
  });
  return { data, nightly, restored, www, shop, db };
}
