import * as pulumi from "@pulumi/pulumi";
import { AcmeCertificate, PostgresPasswordRotation, Volume } from "pulumi-platform";

// A small program: the app comes from a shared stack, the rest from config.
const config = new pulumi.Config();
const shared = new pulumi.StackReference(config.get("sharedStack") ?? "organization/shared/prod");
const app = shared.requireOutput("app").apply(String);

const data = new Volume("data", {
  app,
  name: "data",
  sizeGb: config.getNumber("sizeGb") ?? 10,
  snapshotRetention: 14,
});

const www = new AcmeCertificate("www", { app, hostname: config.get("hostname") ?? "www.example.com" });

const db = new PostgresPasswordRotation("db", {
  clusterId: config.get("clusterId") ?? "pg-main",
  username: "app_user",
  rotationDays: 30,
});

export const volumeId = data.volumeId;
export const volumeState = data.state;
export const volumeRegion = data.region;
/** The CNAME a DNS provider must create for the ACME challenge. */
export const acmeChallengeRecord = www.acmeChallengeRecord;
export const dbUser = db.username;
export const dbPassword = db.password;
export const nextRotationAt = db.nextRotationAt;
