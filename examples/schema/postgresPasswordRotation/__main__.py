import pulumi
import pulumi_platform as platform

# Change `rotation` to rotate again; each rotation alternates between the two users.
rotation = platform.PostgresPasswordRotation(
    "app-user-password",
    cluster_id="demo-pg",
    username="app_user",
    alternate_username="app_user_b",
    triggers={"rotation": "2026-01"},
)

pulumi.export("username", rotation.username)
