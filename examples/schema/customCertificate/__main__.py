import pulumi
import pulumi_platform as platform

# pulumi config set fullchain -- "$(cat fullchain.pem)"
# pulumi config set --secret privateKey -- "$(cat privkey.pem)"
config = pulumi.Config()
api = platform.CustomCertificate(
    "api",
    app="demo-app",
    hostname="api.example.com",
    fullchain=config.require("fullchain"),
    private_key=config.require_secret("privateKey"),
)

pulumi.export("status", api.status)
