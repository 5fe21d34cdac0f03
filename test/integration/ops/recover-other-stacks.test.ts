/**
 * `recover --sweep` beside other stacks of one backend that share the app (issue 46): a volume
 * another stack records is never deleted (nor imported), the report says which and why, and when
 * another stack cannot be read nothing is deleted without --yes-delete-unowned. The platform is
 * the emulator over real HTTP; the stacks are what `pulumi stack ls --all` and `stack export`
 * would give (the engine's side is the e2e's).
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_TIMING } from "../../../emulator";
import { RECOVER_EXIT, recoverWith } from "../../../ops/recover";
import type { CheckpointResource, ExportedDeployment } from "../../../ops/recover-plan";
import type { StackAccess } from "../../../ops/stack-access";
import type { PlatformClient, Volume } from "../../../sdk";
import { type TestEmulator, useTestEmulator } from "../../support/emulator";

const APP = "demo-app";
const TYPE = "pulumi-nodejs:dynamic/platform:Volume";
let h: TestEmulator;
let client: PlatformClient;

useTestEmulator({
  emulator: { timing: DEFAULT_TIMING },
  resetEachTest: true,
  started: (started) => {
    h = started;
    client = h.client();
  },
});

function volumeResource(stack: string, v: Volume): CheckpointResource {
  return {
    urn: `urn:pulumi:${stack}::p::${TYPE}::${v.name}-${v.id}`,
    type: TYPE,
    id: v.id,
    custom: true,
    inputs: { app: APP, name: v.name, region: v.region },
    outputs: { app: APP, name: v.name, region: v.region, createdAt: v.created_at },
  };
}

const deployment = (resources: CheckpointResource[]): ExportedDeployment => ({
  version: 3,
  deployment: { resources },
});

/** Stack `dev` of project `p` owning `mine`, beside the stacks `others` (a name → its export, or an error). */
function stacks(mine: Volume[], others: Record<string, ExportedDeployment | Error>): StackAccess {
  const read = async <T>(value: T | Error) => {
    if (value instanceof Error) throw value;
    return value;
  };
  return {
    exportDeployment: async () => deployment(mine.map((v) => volumeResource("dev", v))),
    importDeployment: async () => {
      throw new Error("nothing is imported by a sweep");
    },
    cancel: async () => undefined,
    configValue: async () => undefined,
    backendUrl: async () => "postgres://fleet",
    stackName: async () => "dev",
    projectName: async () => "p",
    completedUpdates: async () => [],
    listStacks: async () => ["dev", ...Object.keys(others)],
    exportStack: async (name) => read(others[name] ?? new Error(`no stack ${name}`)),
  };
}

/** Three same-named unattached volumes, in the order a sweep sees them: two before the stack's own. */
async function sharedName(name: string): Promise<{ theirs: Volume; orphan: Volume; mine: Volume }> {
  const body = { name, region: "iad", size_gb: 1, require_unique_zone: false };
  const theirs = await client.volumes.create(APP, body);
  const orphan = await client.volumes.create(APP, body);
  const mine = await client.volumes.create(APP, body);
  return { theirs, orphan, mine };
}

async function sweep(access: StackAccess, extra: { yesDeleteUnowned?: boolean } = {}) {
  let report = "";
  const code = await recoverWith(access, {
    sweep: true,
    delete: true,
    yes: true,
    apiUrl: h.url,
    apiToken: h.token,
    environment: {},
    write: (t) => {
      report += t;
    },
    ...extra,
  });
  return { code, report };
}

const alive = async (id: string) => (await client.volumes.list(APP)).some((v) => v.id === id);

describe("recover --sweep beside another stack of the backend", () => {
  it("deletes the orphan, leaves the volume another stack records, and says which and why", async () => {
    const { theirs, orphan, mine } = await sharedName("rs_shared");
    const access = stacks([mine], { "organization/p/prod": deployment([volumeResource("prod", theirs)]) });
    const { code, report } = await sweep(access);
    expect(code).toBe(RECOVER_EXIT.ok);
    expect(report).toContain(`left alone: volume ${theirs.id}`);
    expect(report).toContain("stack organization/p/prod records it");
    expect(report).toContain(`deleted volume ${orphan.id}`);
    expect(report).not.toContain(`deleted volume ${theirs.id}`);
    expect(await alive(theirs.id)).toBe(true);
    expect(await alive(mine.id)).toBe(true);
    expect(await alive(orphan.id)).toBe(false);
  });

  it("a stack it cannot read: says so and deletes nothing without --yes-delete-unowned", async () => {
    const { theirs, orphan, mine } = await sharedName("rs_unread");
    const access = stacks([mine], { "organization/p/prod": new Error("permission denied\nmore") });
    const refused = await sweep(access);
    expect(refused.code).toBe(RECOVER_EXIT.notApplied);
    expect(refused.report).toContain("could not read stack organization/p/prod (permission denied)");
    expect(refused.report).toMatch(
      /2 volume\(s\) would be deleted.*--yes-delete-unowned.*Nothing was changed/,
    );
    for (const v of [theirs, orphan, mine]) expect(await alive(v.id)).toBe(true);

    // Asked for explicitly: what no readable stack records is deleted.
    const forced = await sweep(access, { yesDeleteUnowned: true });
    expect(forced.code).toBe(RECOVER_EXIT.ok);
    expect(await alive(orphan.id)).toBe(false);
    expect(await alive(theirs.id)).toBe(false);
    expect(await alive(mine.id)).toBe(true);
  });

  it("a backend whose stacks cannot be listed is treated as unreadable too", async () => {
    const { mine } = await sharedName("rs_unlisted");
    const access: StackAccess = {
      ...stacks([mine], {}),
      listStacks: async () => {
        throw new Error("`pulumi stack ls --all --json` failed: no access");
      },
    };
    const { code, report } = await sweep(access);
    expect(code).toBe(RECOVER_EXIT.notApplied);
    expect(report).toContain("could not read the backend's list of stacks");
  });
});
