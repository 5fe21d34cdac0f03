import * as pulumi from "@pulumi/pulumi";
import { PostgresPasswordRotation } from "pulumi-platform";

const config = new pulumi.Config();

// Changing the `rotation` config value rotates the password again (triggers → replace).
const rotation = new PostgresPasswordRotation("app-user", {
  clusterId: "demo-pg",
  username: config.get("username") ?? "app_user",
  killSessions: true,
  triggers: { rotation: config.get("rotation") ?? "1" },
});

export const username = rotation.username;
export const password = rotation.password;
export const rotatedAt = rotation.rotatedAt;
