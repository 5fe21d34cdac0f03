// @ts-check
// Mixed: 40% volumes, 20% ACME, 20% custom certificates, 20% password rotations. `generation`
// rotates every password and re-imports every custom certificate's key (in place). The bench
// writes certs.json (two generations of certificates) beside this file.
const fs = require("node:fs");
const path = require("node:path");
const pulumi = require("@pulumi/pulumi");
const { Volume, AcmeCertificate, CustomCertificate, PostgresPasswordRotation } = require("pulumi-platform");

const config = new pulumi.Config();
const n = config.requireNumber("n");
const generation = config.get("generation") || "1";
/** @type {{ cert: string, key: string }[][]} */
const certs = JSON.parse(fs.readFileSync(path.join(__dirname, "certs.json"), "utf8"));
const part = Math.floor(n / 5);
for (let i = 0; i < n - 3 * part; i++) {
  new Volume(`v${i}`, { app: "demo-app", name: `v${i}`, region: "ord", sizeGb: 1 });
}
for (let i = 0; i < part; i++) {
  new AcmeCertificate(`acme${i}`, { app: "demo-app", hostname: `a${i}.bench.example.com` });
}
for (let i = 0; i < part; i++) {
  const pem = certs[generation === "1" ? 0 : 1][i];
  new CustomCertificate(`custom${i}`, {
    app: "demo-app",
    hostname: `c${i}.bench.example.com`,
    fullchain: pem.cert,
    privateKey: pulumi.secret(pem.key),
  });
}
for (let i = 0; i < part; i++) {
  new PostgresPasswordRotation(`rot${i}`, {
    clusterId: "demo-pg",
    username: `bench_user_${i}`,
    triggers: { generation },
  });
}
