import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  acmeCertificateDeclaration,
  customCertificateDeclaration,
  postgresPasswordRotationDeclaration,
  volumeDeclaration,
  volumeSnapshotDeclaration,
} from "../../../provider/kinds/declarations";
import * as runtime from "../../../provider/kinds/runtime-entry";
import { outputNames, type ResourceDeclaration } from "../../../provider/model/declaration";
import { makeCert } from "../../support/certs";
import { type ProviderHarness, startHarness, withProvider } from "./helpers";

// Each class registers (and so declares) exactly outputNames(declaration); see
// test/unit/provider/declarations.test.ts. Here the runtime must return exactly those, every one
// of them, when every input is given: no output a program cannot read, none declared but never set.

const APP = "demo-app";
let h: ProviderHarness;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

function returnedNames(declaration: ResourceDeclaration, outs: Record<string, unknown>): string[] {
  const internal = new Set(["__provider", ...(declaration.internalOutputs ?? [])]);
  return Object.keys(outs)
    .filter((k) => !internal.has(k))
    .sort();
}

const declaredNames = (declaration: ResourceDeclaration) => outputNames(declaration).sort();

describe("the runtime returns exactly the outputs each class declares", () => {
  let volumeId: string;

  it("Volume (every input given but adoptVolumeId and snapshotId)", async () => {
    const source = await runtime.volume.create(withProvider({ app: APP, name: "src", region: "ord" }));
    const { id, outs } = await runtime.volume.create(
      withProvider({
        app: APP,
        name: "every-input",
        region: "ord",
        sizeGb: 4,
        encrypted: true,
        fstype: "ext4",
        autoBackupEnabled: false,
        snapshotRetention: 7,
        sourceVolumeId: source.id,
        machinesOnly: true,
        requireUniqueZone: false,
        compute: { cpuKind: "shared", cpus: 1, memoryMb: 256 },
        restoreTimeoutSeconds: 30,
      }),
    );
    volumeId = id;
    // The two inputs a create cannot combine with a fork are the only ones left out.
    const absent = ["adoptVolumeId", "snapshotId"];
    expect(returnedNames(volumeDeclaration, outs)).toEqual(
      declaredNames(volumeDeclaration).filter((n) => !absent.includes(n)),
    );
    const read = await runtime.volume.read(id, outs);
    expect(returnedNames(volumeDeclaration, read.props)).toEqual(returnedNames(volumeDeclaration, outs));
  });

  it("AcmeCertificate and CustomCertificate", async () => {
    const common = { waitForActive: false, waitTimeoutSeconds: 5, adoptExisting: false };
    const acme = await runtime.acmeCertificate.create(
      withProvider({ app: APP, hostname: "outputs.example.com", ...common }),
    );
    expect(returnedNames(acmeCertificateDeclaration, acme.outs)).toEqual(
      declaredNames(acmeCertificateDeclaration),
    );
    const { cert, key } = await makeCert("custom-outputs.example.com");
    const custom = await runtime.customCertificate.create(
      withProvider({
        app: APP,
        hostname: "custom-outputs.example.com",
        fullchain: cert,
        privateKey: key,
        expiryWarningDays: 30,
        ...common,
      }),
    );
    expect(returnedNames(customCertificateDeclaration, custom.outs)).toEqual(
      declaredNames(customCertificateDeclaration),
    );
  });

  it("PostgresPasswordRotation", async () => {
    const { outs } = await runtime.postgresPasswordRotation.create(
      withProvider({
        clusterId: "demo-pg",
        username: "app_user",
        alternateUsername: "app_user_b",
        killSessions: false,
        triggers: { v: "1" },
        rotationDays: 30,
      }),
    );
    expect(returnedNames(postgresPasswordRotationDeclaration, outs)).toEqual(
      declaredNames(postgresPasswordRotationDeclaration),
    );
  });

  it("VolumeSnapshotRequest", async () => {
    const { outs } = await runtime.volumeSnapshot.create(
      withProvider({ app: APP, volumeId, triggers: { v: "1" }, waitTimeoutSeconds: 30 }),
    );
    expect(returnedNames(volumeSnapshotDeclaration, outs)).toEqual(declaredNames(volumeSnapshotDeclaration));
  });
});
