import * as pulumi from "@pulumi/pulumi";
import { CustomCertificate } from "pulumi-platform";

// pulumi config set fullchain -- "$(cat fullchain.pem)"
// pulumi config set --secret privateKey -- "$(cat privkey.pem)"
const config = new pulumi.Config();
const api = new CustomCertificate("api", {
  app: "demo-app",
  hostname: "api.example.com",
  fullchain: config.require("fullchain"),
  privateKey: config.requireSecret("privateKey"),
});

export const status = api.status;
