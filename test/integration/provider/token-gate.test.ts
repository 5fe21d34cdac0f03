import * as pulumi from "@pulumi/pulumi";
import { afterEach, describe, expect, it } from "vitest";
import { KIND_NAMES } from "../../../provider/kinds/names";
import {
  engineSources,
  type GateSources,
  heldForToken,
  TokenGate,
} from "../../../provider/registration/token-gate";
import { useTestEmulator } from "../../support/emulator";

// The token gate of a TypeScript program (both doors' classes), against the emulator over HTTP:
// one read before the first registration; a 401 fails every held registration with one error and
// nothing else is sent; any other answer lets them go on with the program's own `dependsOn`.

const e = useTestEmulator({ resetEachTest: true });
const WRONG = "gate-wrong-token-5e1a";

/** The gate's sources: the stack config `config`, the environment `env`. */
function sources(config: Record<string, string>, env: Record<string, string> = {}): GateSources {
  return { config: (key) => config[key], env };
}

/** A config with the emulator's URL and `token`. */
const stackConfig = (token: string) => ({ "platform:apiUrl": e.url, "platform:apiToken": token });

/** The requests the emulator logged, as "METHOD path status". */
async function sent(): Promise<string[]> {
  return (await e.requests()).map((r) => `${r.method} ${r.path} ${r.status}`);
}

/** What a held `dependsOn` settles to: its value, or the error it rejects with. */
async function settled(
  opts: { dependsOn?: unknown; provider?: unknown } | undefined,
): Promise<{ value?: unknown; error?: unknown }> {
  return Promise.resolve(opts?.dependsOn).then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
}

/** A stand-in for a resource of the program's own `dependsOn`: the gate passes it on untouched. */
const ownDependency = { name: "the program's own dependency" } as unknown as pulumi.Resource;

describe("a refused token (401)", () => {
  it("fails every held registration with one error naming the stack config's token and the fix; only the probe is sent", async () => {
    const gate = new TokenGate(sources(stackConfig(WRONG)));
    const volume = gate.hold(KIND_NAMES.volume, { app: "demo-app", name: "data" }, undefined);
    const acme = gate.hold(KIND_NAMES.acmeCertificate, { app: "demo-app", hostname: "a.example.com" }, {});
    const rotation = gate.hold(KIND_NAMES.postgresPasswordRotation, { clusterId: "pg" }, {});
    const outcomes = await Promise.all([volume, acme, rotation].map(settled));
    const refused = outcomes[0]?.error as Error;
    expect(refused).toBeInstanceOf(Error);
    // One error object: Pulumi's Node runtime reports it once.
    for (const outcome of outcomes) expect(outcome.error).toBe(refused);
    expect(pulumi.RunError.isInstance(refused)).toBe(true);
    const message = refused.message;
    expect(message).toBe(
      "The platform refused the API token of the stack config (platform:apiToken): GET /v1/apps/demo-app/volumes failed with 401: unauthorized: the bearer token is not valid. Nothing was changed: the program stopped before it registered any resource, so the stack keeps the token of its last successful `pulumi up`. Set a valid one with `pulumi config set --secret platform:apiToken <token>` and run `pulumi up` again",
    );
    // No frame of this package is printed beside it.
    expect(refused.stack).toBe(message);
    expect(message).not.toContain(WRONG);
    expect(await sent()).toEqual(["GET /v1/apps/demo-app/volumes 401"]);
  });

  it("names PLATFORM_API_TOKEN when the token came from there, and says the stack config's would win when both are set", async () => {
    const fromEnv = new TokenGate(sources({ "platform:apiUrl": e.url }, { PLATFORM_API_TOKEN: WRONG }));
    const { error } = await settled(fromEnv.hold(KIND_NAMES.volume, { app: "demo-app" }, undefined));
    expect((error as Error).message).toMatch(
      /^The platform refused the API token in PLATFORM_API_TOKEN \(the stack config sets no platform:apiToken\): GET \/v1\/apps\/demo-app\/volumes failed with 401/,
    );
    expect((error as Error).message).toContain(
      "Set a valid token there, or in the stack config with `pulumi config set --secret platform:apiToken <token>`",
    );

    const both = new TokenGate(sources(stackConfig(WRONG), { PLATFORM_API_TOKEN: e.token }));
    const refused = await settled(both.hold(KIND_NAMES.volume, { app: "demo-app" }, undefined));
    expect((refused.error as Error).message).toContain(
      "(platform:apiToken) (PLATFORM_API_TOKEN is used only when the stack config sets no token)",
    );
    expect((refused.error as Error).message).not.toContain(e.token);
  });

  it("asks with the kind's own family: one entry of the certificate list for a certificate", async () => {
    const gate = new TokenGate(sources(stackConfig(WRONG)));
    const custom = gate.hold(
      KIND_NAMES.customCertificate,
      { app: "demo-app", hostname: "c.example.com" },
      {},
    );
    expect((await settled(custom)).error).toBeInstanceOf(Error);
    expect(await sent()).toEqual(["GET /v1/apps/demo-app/certificates 401"]);
  });
});

describe("any other outcome lets the registrations go on, with the program's own dependsOn", () => {
  it("a 200: one request for the whole program, each dependsOn as the program gave it", async () => {
    const gate = new TokenGate(sources(stackConfig(e.token)));
    const app = pulumi.output(Promise.resolve("demo-app"));
    const held = [
      gate.hold(KIND_NAMES.volume, { app }, undefined),
      gate.hold(KIND_NAMES.volume, { app: "demo-app" }, { dependsOn: ownDependency }),
      gate.hold(KIND_NAMES.volumeSnapshot, { app: "demo-app" }, { dependsOn: [ownDependency] }),
    ];
    const values = (await Promise.all(held.map(settled))).map((o) => o.value);
    expect(values).toEqual([[], [ownDependency], [[ownDependency]]]);
    expect((values[1] as unknown[])[0]).toBe(ownDependency);
    // A resource constructed later waits for the same decision, and asks nothing.
    expect((await settled(gate.hold(KIND_NAMES.volume, { app: "other" }, undefined))).value).toEqual([]);
    expect(await sent()).toEqual(["GET /v1/apps/demo-app/volumes 200"]);
  });

  it("a 404 for an app that does not exist yet", async () => {
    const gate = new TokenGate(sources(stackConfig(e.token)));
    const outcome = await settled(gate.hold(KIND_NAMES.acmeCertificate, { app: "no-such-app" }, undefined));
    expect(outcome).toEqual({ value: [] });
    expect(await sent()).toEqual(["GET /v1/apps/no-such-app/certificates 404"]);
  });

  it("a platform that cannot be reached", async () => {
    const gate = new TokenGate(
      sources({ "platform:apiUrl": "http://127.0.0.1:9", "platform:apiToken": WRONG }),
    );
    expect(await settled(gate.hold(KIND_NAMES.volume, { app: "demo-app" }, undefined))).toEqual({
      value: [],
    });
  });

  it("a 503 after the retry", async () => {
    await e.control.faults.add({
      method: "GET",
      path: "/v1/apps/demo-app/volumes",
      kind: "status",
      status: 503,
      times: 0,
    });
    const gate = new TokenGate(sources(stackConfig(e.token)));
    expect(await settled(gate.hold(KIND_NAMES.volume, { app: "demo-app" }, undefined))).toEqual({
      value: [],
    });
    expect(await sent()).toEqual(["GET /v1/apps/demo-app/volumes 503", "GET /v1/apps/demo-app/volumes 503"]);
  });

  it("no app among the inputs (a program of rotations only), a provider of its own, no credentials: nothing is sent", async () => {
    const rotations = new TokenGate(sources(stackConfig(WRONG)));
    const rotation = rotations.hold(KIND_NAMES.postgresPasswordRotation, { clusterId: "pg" }, undefined);
    expect(await settled(rotation)).toEqual({ value: [] });
    // A resource with a provider of its own is not asked about with the stack config's token.
    const ownProvider = new TokenGate(sources(stackConfig(WRONG)));
    const provider = { name: "its own provider" } as unknown as pulumi.ProviderResource;
    expect(await settled(ownProvider.hold(KIND_NAMES.volume, { app: "demo-app" }, { provider }))).toEqual({
      value: [],
    });
    const noToken = new TokenGate(sources({ "platform:apiUrl": e.url }));
    expect(await settled(noToken.hold(KIND_NAMES.volume, { app: "demo-app" }, undefined))).toEqual({
      value: [],
    });
    expect(await sent()).toEqual([]);
  });
});

describe("where the gate runs", () => {
  afterEach(() => {
    pulumi.runtime.resetOptions("project", "stack", -1, "", "", false, "");
  });

  it("only in a real run of the engine: not in a preview, not under the testing mocks, not without an engine", async () => {
    // An engine's monitor address (never dialled here: the client connects on its first call).
    pulumi.runtime.resetOptions("project", "stack", -1, "", "127.0.0.1:1", false, "");
    expect(engineSources()).toBeDefined();
    pulumi.runtime.resetOptions("project", "stack", -1, "", "127.0.0.1:1", true, "");
    expect(engineSources()).toBeUndefined();
    pulumi.runtime.resetOptions("project", "stack", -1, "", "", false, "");
    expect(engineSources()).toBeUndefined();
    await pulumi.runtime.setMocks(
      { newResource: (args) => ({ id: `${args.name}-id`, state: args.inputs }), call: (args) => args.inputs },
      "project",
      "stack",
      false,
    );
    expect(engineSources()).toBeUndefined();
  });

  it("a preview sends no request and leaves the options as they are", async () => {
    pulumi.runtime.resetOptions("project", "stack", -1, "", "127.0.0.1:1", true, "");
    const opts = { dependsOn: ownDependency };
    expect(heldForToken(KIND_NAMES.volume, { app: "demo-app" }, opts)).toBe(opts);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await sent()).toEqual([]);
  });

  it("every kind with an app is asked about with its own family", () => {
    expect([KIND_NAMES.volume.probe, KIND_NAMES.volumeSnapshot.probe]).toEqual(["volumes", "volumes"]);
    expect(KIND_NAMES.customCertificate.probe).toBe("certificates");
    expect(KIND_NAMES.postgresPasswordRotation.probe).toBeUndefined();
    for (const kind of Object.values(KIND_NAMES)) {
      expect(kind.probe !== undefined, kind.key).toBe(kind.outputs.includes("app"));
    }
  });
});
