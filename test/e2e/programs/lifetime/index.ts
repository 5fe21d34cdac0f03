import * as pulumi from "@pulumi/pulumi";
import * as dynamicDoor from "pulumi-platform";
import * as pluginDoor from "pulumi-platform/plugin";

// docs/day-2.md's shapes, each switched on in `parts` so that a test deploys only what it looks at;
// everything a test changes between runs comes from stack config, and so does the door
// (`door: plugin`: the provider plugin's classes, else the dynamic ones; same args and outputs).
const config = new pulumi.Config();
const { AcmeCertificate, CustomCertificate, PostgresPasswordRotation, Volume, VolumeSnapshot } =
  config.get("door") === "plugin" ? pluginDoor : dynamicDoor;
const parts = new Set((config.get("parts") ?? "quickstart,volumes,certificates,rotation").split(","));
const app = "demo-app";
const region = "iad";
const domain = "life.example.com";

function quickstart() {
  const data = new Volume("data", {
    app,
    name: "data",
    region,
    sizeGb: config.getNumber("dataSizeGb") ?? 3,
    snapshotRetention: config.getNumber("dataRetention") ?? 2,
  });
  const triggers = config.get("snapshotTriggers");
  const snap = new VolumeSnapshot("data-snap", {
    app,
    volumeId: data.id,
    waitTimeoutSeconds: 60,
    ...(triggers === undefined ? {} : { triggers: { run: triggers } }),
  });
  const restoredSizeGb = config.getNumber("restoredSizeGb");
  const restoredRetention = config.getNumber("restoredRetention");
  // Pulumi's own option, e.g. `snapshotId` (a retaken snapshot then restores the volume again).
  const restoredReplaceOnChanges = config.get("restoredReplaceOnChanges")?.split(",");
  // The engine's own option: the restored volume is replaced whenever the snapshot is.
  const restoredReplaceWithSnapshot = config.getBoolean("restoredReplaceWithSnapshot") ?? false;
  const restored = new Volume(
    "restored",
    {
      app,
      name: "data_restored",
      region,
      snapshotId: snap.snapshotId,
      restoreTimeoutSeconds: 60,
      ...(restoredSizeGb === undefined ? {} : { sizeGb: restoredSizeGb }),
      ...(restoredRetention === undefined ? {} : { snapshotRetention: restoredRetention }),
    },
    {
      ...(restoredReplaceOnChanges === undefined ? {} : { replaceOnChanges: restoredReplaceOnChanges }),
      ...(restoredReplaceWithSnapshot ? { replaceWith: [snap] } : {}),
      protect: config.getBoolean("protectRestored") ?? false,
      deleteBeforeReplace: config.getBoolean("restoredDeleteBeforeReplace") ?? false,
    },
  );
  // A fork of the data volume, switched on by `forkSizeGb`.
  const forkSizeGb = config.getNumber("forkSizeGb");
  const fork =
    forkSizeGb === undefined
      ? undefined
      : new Volume("fork", { app, name: "data_fork", region, sourceVolumeId: data.id, sizeGb: forkSizeGb });
  return {
    dataId: data.volumeId,
    snapshotId: snap.snapshotId,
    snapshotListed: snap.listed,
    snapshotLastSeenAt: snap.lastSeenAt,
    restoredId: restored.volumeId,
    restoredFrom: restored.snapshotId,
    restoredSize: restored.sizeGb,
    forkId: fork?.volumeId,
    forkSize: fork?.sizeGb,
  };
}

function volumes() {
  const logs = new Volume("logs", {
    app,
    name: "logs",
    region,
    sizeGb: config.getNumber("logsSizeGb") ?? 3,
    snapshotRetention: config.getNumber("logsRetention") ?? 5,
  });
  return { logsId: logs.volumeId, logsSize: logs.sizeGb, logsRetention: logs.snapshotRetention };
}

function certificates() {
  const warnDays = config.getNumber("expiryWarningDays");
  // Both kinds on one hostname: the custom certificate is served first, ACME is the fallback.
  const api = new CustomCertificate("api", {
    app,
    hostname: `api.${domain}`,
    fullchain: config.require("apiChain"),
    privateKey: config.requireSecret("apiKey"),
    ...(warnDays === undefined ? {} : { expiryWarningDays: warnDays }),
  });
  const apiAcme = new AcmeCertificate("api-acme", { app, hostname: `api.${domain}` });
  const wildcard = new AcmeCertificate("wildcard", { app, hostname: `*.${domain}` });
  const shortChain = config.get("shortChain");
  const short = shortChain
    ? new CustomCertificate("short", {
        app,
        hostname: `short.${domain}`,
        fullchain: shortChain,
        privateKey: config.requireSecret("shortKey"),
      })
    : undefined;
  return {
    apiExpiresAt: api.expiresAt,
    apiExpiresInDays: api.expiresInDays,
    apiAcmeRequested: apiAcme.acmeRequested,
    wildcardStatus: wildcard.status,
    shortExpiresInDays: short?.expiresInDays,
  };
}

function rotation() {
  const rotationDays = config.getNumber("rotationDays");
  const scheduled = new PostgresPasswordRotation("scheduled", {
    clusterId: "demo-pg",
    username: "app_user",
    ...(rotationDays === undefined ? {} : { rotationDays }),
  });
  // No schedule: rotates only when an input changes.
  const manual = new PostgresPasswordRotation("manual", { clusterId: "demo-pg", username: "app_user" });
  return {
    scheduledPassword: scheduled.password,
    scheduledRotatedAt: scheduled.rotatedAt,
    scheduledNextRotationAt: scheduled.nextRotationAt,
    manualRotatedAt: manual.rotatedAt,
  };
}

export const state = {
  ...(parts.has("quickstart") ? quickstart() : {}),
  ...(parts.has("volumes") ? volumes() : {}),
  ...(parts.has("certificates") ? certificates() : {}),
  ...(parts.has("rotation") ? rotation() : {}),
};
