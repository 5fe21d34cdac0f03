import * as pulumi from "@pulumi/pulumi";
import { CustomCertificate, Volume, type VolumeArgs } from "pulumi-platform";

// The volume's inputs come as JSON from config; the certificate is declared when a chain is given.
const config = new pulumi.Config();
new Volume("data", JSON.parse(config.require("volume")) as VolumeArgs);

const fullchain = config.get("fullchain");
if (fullchain) {
  new CustomCertificate("www", {
    app: "demo-app",
    hostname: "www.example.com",
    fullchain,
    privateKey: config.requireSecret("privateKey"),
  });
}
