import * as pulumi from "@pulumi/pulumi";
import * as dynamicDoor from "pulumi-platform";
import * as pluginDoor from "pulumi-platform/plugin";

// A rotation every 30 days; with `alternateUsername` set in config, rotations alternate between two
// users. An app reads the outputs as its credential (username, password). `triggers` rotates on
// demand; `door: plugin` takes the provider plugin's class (else the dynamic one; same args, outputs).
const config = new pulumi.Config();
const alternateUsername = config.get("alternateUsername");
const triggers = config.get("triggers");
const { PostgresPasswordRotation } = config.get("door") === "plugin" ? pluginDoor : dynamicDoor;

const rotation = new PostgresPasswordRotation("app-db", {
  clusterId: "demo-pg",
  username: "app_user",
  ...(alternateUsername ? { alternateUsername } : {}),
  ...(triggers ? { triggers: { run: triggers } } : {}),
  killSessions: true,
  rotationDays: 30,
});

export const username = rotation.username;
export const password = rotation.password;
export const previousUsername = rotation.previousUsername;
export const previousPassword = rotation.previousPassword;
