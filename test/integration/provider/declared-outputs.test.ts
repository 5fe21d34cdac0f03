import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RESOURCE_KEYS, type ResourceKey, registry } from "../../../provider/kinds/registry";
import * as runtime from "../../../provider/kinds/runtime-entry";
import { outputNames, type ResourceDeclaration } from "../../../provider/model/declaration";
import { makeCert } from "../../support/certs";
import { type ProviderHarness, startHarness, withProvider } from "./helpers";

// Each class registers (and so declares) exactly outputNames(declaration); see
// test/unit/provider/declarations.test.ts. Here the runtime must return exactly those, every one
// of them, when every input is given: no output a program cannot read, none declared but never set.
// Every registry kind is created at the emulator here, through its runtime and the sdk: a kind
// whose emulator route, store or sdk call is missing fails.

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

/** How each kind is created with every input given; a registry kind without a case does not compile. */
const CREATES: {
  readonly [K in ResourceKey]: (made: { volumeId?: string }) => Promise<{
    outs: Record<string, unknown>;
    absent?: string[];
    read?: () => Promise<Record<string, unknown>>;
  }>;
} = {
  // Every input given but adoptVolumeId and snapshotId, the two a create cannot combine with a fork.
  async volume(made) {
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
    made.volumeId = id;
    return {
      outs,
      absent: ["adoptVolumeId", "snapshotId"],
      read: async () => (await runtime.volume.read(id, outs)).props,
    };
  },
  async acmeCertificate() {
    const { outs } = await runtime.acmeCertificate.create(
      withProvider({ app: APP, hostname: "outputs.example.com", ...CERTIFICATE_WAITS }),
    );
    return { outs };
  },
  async customCertificate() {
    const { cert, key } = await makeCert("custom-outputs.example.com");
    const { outs } = await runtime.customCertificate.create(
      withProvider({
        app: APP,
        hostname: "custom-outputs.example.com",
        fullchain: cert,
        privateKey: key,
        expiryWarningDays: 30,
        ...CERTIFICATE_WAITS,
      }),
    );
    return { outs };
  },
  async postgresPasswordRotation() {
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
    return { outs };
  },
  async volumeSnapshot(made) {
    const volumeId =
      made.volumeId ??
      (await runtime.volume.create(withProvider({ app: APP, name: "snapped", region: "ord" }))).id;
    const { outs } = await runtime.volumeSnapshot.create(
      withProvider({ app: APP, volumeId, triggers: { v: "1" }, waitTimeoutSeconds: 30 }),
    );
    return { outs };
  },
};

const CERTIFICATE_WAITS = { waitForActive: false, waitTimeoutSeconds: 5, adoptExisting: false };

describe("the runtime returns exactly the outputs each class declares", () => {
  const made: { volumeId?: string } = {};

  // In the registry's order: a volume before its snapshot.
  it.each(RESOURCE_KEYS)("%s (every input given)", async (key) => {
    const declaration = registry[key].declaration;
    const { outs, absent = [], read } = await CREATES[key](made);
    expect(returnedNames(declaration, outs)).toEqual(
      declaredNames(declaration).filter((n) => !absent.includes(n)),
    );
    if (read) expect(returnedNames(declaration, await read())).toEqual(returnedNames(declaration, outs));
  });
});
