import { AcmeCertificate } from "pulumi-platform";

const wildcard = new AcmeCertificate("wildcard", { app: "demo-app", hostname: "*.example.com" });

export const status = wildcard.status;
