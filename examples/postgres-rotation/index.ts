import * as pulumi from "@pulumi/pulumi";
import { PostgresPasswordRotation } from "pulumi-platform";

const config = new pulumi.Config();

// Every change to `triggers` rotates again (the resource is replaced, like the random
// provider's keepers). A date-based trigger rotates on schedule whenever `up` runs:
// e.g. `{ month: new Date().toISOString().slice(0, 7) }` rotates once a month.
// With `alternateUsername` (config `alternateUsername`, e.g. app_user_b), rotations alternate
// between two users and the credential apps hold stays valid until the next rotation
// (docs/rotation.md); without it, the old password stops working at once.
const alternateUsername = config.get("alternateUsername");
const rotation = new PostgresPasswordRotation("app-user", {
  clusterId: config.get("clusterId") ?? "demo-pg",
  username: config.get("username") ?? "app_user",
  ...(alternateUsername ? { alternateUsername } : {}),
  killSessions: config.getBoolean("killSessions") ?? false,
  triggers: { rotation: config.get("rotation") ?? "2025-01" },
});

export const username = rotation.username;
// A secret: `pulumi stack output password --show-secrets` prints it.
export const password = rotation.password;
export const rotatedAt = rotation.rotatedAt;
export const previousUsername = rotation.previousUsername;
export const previousPassword = rotation.previousPassword;
