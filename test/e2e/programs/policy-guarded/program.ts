import * as pulumi from "@pulumi/pulumi";
import { CustomCertificate, Volume, type VolumeArgs } from "pulumi-platform";

/**
 * A Volume whose inputs come as JSON from config, and a CustomCertificate when a chain is given.
 * The one source of the program: `index.ts` runs it as a `runtime: nodejs` project, and
 * test/e2e/policy-pack.test.ts as an Automation API inline program (see there why).
 */
export function policyGuardedProgram(): void {
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
}
