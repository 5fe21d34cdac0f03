import * as pulumi from "@pulumi/pulumi";
import { PostgresPasswordRotation } from "pulumi-platform";

// A rotation every 30 days; with `alternateUsername` set in config, rotations alternate between two
// users. An app reads the outputs as its credential (username, password).
const config = new pulumi.Config();
const alternateUsername = config.get("alternateUsername");

const rotation = new PostgresPasswordRotation("app-db", {
  clusterId: "demo-pg",
  username: "app_user",
  ...(alternateUsername ? { alternateUsername } : {}),
  killSessions: true,
  rotationDays: 30,
});

export const username = rotation.username;
export const password = rotation.password;
export const previousUsername = rotation.previousUsername;
export const previousPassword = rotation.previousPassword;
