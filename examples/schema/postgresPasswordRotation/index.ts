import { PostgresPasswordRotation } from "pulumi-platform";

// Change `rotation` to rotate again; each rotation alternates between the two users.
const rotation = new PostgresPasswordRotation("app-user-password", {
  clusterId: "demo-pg",
  username: "app_user",
  alternateUsername: "app_user_b",
  triggers: { rotation: "2026-01" },
});

export const username = rotation.username;
