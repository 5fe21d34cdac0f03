import * as pulumi from "@pulumi/pulumi";
import { AcmeCertificate } from "pulumi-platform";

const config = new pulumi.Config();
const cert = new AcmeCertificate("www", {
  app: "demo-app",
  hostname: config.require("hostname"),
  waitForActive: true,
  waitTimeoutSeconds: 60,
});

export const status = cert.status;
