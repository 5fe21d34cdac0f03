import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import * as runtime from "../../../provider/kinds/runtime-entry";
import { AmbiguousTakeOverError } from "../../../sdk";
import { makeCert } from "../../support/certs";
import { PROVIDER, type ProviderHarness, rejectionOf, startHarness, withProvider } from "./helpers";

// A create whose answer is lost after the platform acted (the connection drops once the handler
// ran) must not fail, duplicate, or leave something the stack does not own.

const APP = "demo-app";
let h: ProviderHarness;

beforeAll(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.control.faults.clear();
});
afterAll(async () => {
  await h?.close();
});

const dropAnswers = (method: string, path: string, times = 1) =>
  h.control.faults.add({ method, path, kind: "drop-after", times });

const calls = async (since: number, method: string, suffix: string) =>
  (await h.requests()).slice(since).filter((r) => r.method === method && r.path.endsWith(suffix));

describe("a certificate POST whose answer is lost", () => {
  it("ACME: the hostname is looked at and the request that landed is taken, not repeated blindly", async () => {
    await dropAnswers("POST", `/v1/apps/${APP}/certificates/acme`);
    const since = (await h.requests()).length;
    const { id, outs } = await runtime.acmeCertificate.create(
      withProvider({ app: APP, hostname: "lost-acme.example.com" }),
    );
    expect(id).toBe("lost-acme.example.com");
    expect(outs).toMatchObject({ acmeRequested: true, status: "pending_validation" });
    expect(await calls(since, "POST", "/certificates/acme")).toHaveLength(1);
  });

  it("custom: the hostname holding this leaf counts as imported; one import reached the platform", async () => {
    const pem = await makeCert("lost-custom.example.com");
    await dropAnswers("POST", `/v1/apps/${APP}/certificates/custom`);
    const since = (await h.requests()).length;
    const inputs = withProvider({
      app: APP,
      hostname: "lost-custom.example.com",
      fullchain: pem.cert,
      privateKey: pem.key,
    });
    const { outs } = await runtime.customCertificate.create(inputs);
    expect(outs).toMatchObject({ hostname: "lost-custom.example.com", status: "pending_ownership" });
    expect(await calls(since, "POST", "/certificates/custom")).toHaveLength(1);

    // The next `up` of a stack that lost the whole create finds this leaf and takes it without importing.
    const again = (await h.requests()).length;
    await runtime.customCertificate.create(inputs);
    expect(await calls(again, "POST", "/certificates/custom")).toHaveLength(0);
  });

  it("another custom certificate on the hostname is still refused without adoptExisting", async () => {
    const [theirs, ours] = await Promise.all([
      makeCert("theirs.example.com", ["theirs.example.com"], { to: Date.now() + 50 * 86_400_000 }),
      makeCert("theirs.example.com", ["theirs.example.com"], { to: Date.now() + 80 * 86_400_000 }),
    ]);
    await h.api("POST", `/v1/apps/${APP}/certificates/custom`, {
      hostname: "theirs.example.com",
      fullchain: theirs.cert,
      private_key: theirs.key,
    });
    await expect(
      runtime.customCertificate.create(
        withProvider({
          app: APP,
          hostname: "theirs.example.com",
          fullchain: ours.cert,
          privateKey: ours.key,
        }),
      ),
    ).rejects.toThrow(/already has another custom certificate; set adoptExisting: true/);
  });

  it("every answer lost: kept in the stack under its hostname, and the next up's update finishes it", async () => {
    // The connection drops before the platform acts, three times: nothing landed, nothing is known.
    await h.control.faults.add({
      method: "POST",
      path: `/v1/apps/${APP}/certificates/acme`,
      kind: "drop-before",
      times: 3,
    });
    const inputs = withProvider({ app: APP, hostname: "never.example.com" });
    const err = await rejectionOf(runtime.acmeCertificate.create(inputs));
    expect(err.id).toBe("never.example.com");
    expect(err.properties.__provider).toBe(PROVIDER);
    expect(err.message).toMatch(/the answer was lost 3 times/);
    await h.control.faults.clear();

    // The engine records the resource and calls update on the next up.
    const { outs } = await runtime.acmeCertificate.update(err.id, err.properties, inputs);
    expect(outs).toMatchObject({ acmeRequested: true });
    const hostnames = (await h.state()).certificates.map((c) => c.hostname);
    expect(hostnames.filter((x) => x === "never.example.com")).toHaveLength(1);
  });
});

describe("a volume extend whose answer is lost", () => {
  it("the volume is read before anything is sent again: it landed, so the update succeeds at the target size with one extend", async () => {
    const inputs = withProvider({ app: APP, name: "grown", region: "iad", sizeGb: 3 });
    const { id, outs } = await runtime.volume.create(inputs);
    await h.control.volumes.attach(id, "m-1");
    await dropAnswers("PUT", `/v1/apps/${APP}/volumes/${id}/extend`);
    const since = (await h.requests()).length;
    const updated = await runtime.volume.update(id, outs, { ...inputs, sizeGb: 8 });
    expect(updated.outs).toMatchObject({ sizeGb: 8, needsRestart: true });
    const extends_ = await calls(since, "PUT", "/extend");
    expect(extends_.map((r) => r.status)).toEqual([200]);
    expect((await h.api("GET", `/v1/apps/${APP}/volumes/${id}`)).body.size_gb).toBe(8);
  });
});

describe("an on-demand snapshot whose answer is lost", () => {
  it("is identified as the one new snapshot of the volume; no second snapshot is taken", async () => {
    const vol = await runtime.volume.create(withProvider({ app: APP, name: "snapped", region: "iad" }));
    await dropAnswers("POST", `/v1/apps/${APP}/volumes/${vol.id}/snapshots`);
    const { id, outs } = await runtime.volumeSnapshot.create(
      withProvider({ app: APP, volumeId: vol.id, waitTimeoutSeconds: 10 }),
    );
    const snapshots = (await h.state()).snapshots.filter((s) => s.volume_id === vol.id);
    expect(snapshots.map((s) => s.id)).toEqual([id]);
    expect(outs).toMatchObject({ snapshotId: id, listed: true });
  });

  it("two new snapshots cannot be told apart: it fails naming both and records none", async () => {
    const vol = await runtime.volume.create(withProvider({ app: APP, name: "crowded", region: "iad" }));
    await dropAnswers("POST", `/v1/apps/${APP}/volumes/${vol.id}/snapshots`);
    // Time stands still, so nothing new is listed until both snapshots exist.
    await h.control.time.speed(0);
    try {
      const since = (await h.requests()).length;
      const create = runtime.volumeSnapshot.create(
        withProvider({ app: APP, volumeId: vol.id, waitTimeoutSeconds: 5 }),
      );
      while ((await calls(since, "POST", "/snapshots")).length === 0)
        await new Promise((r) => setTimeout(r, 20));
      // Someone else takes a snapshot of the same volume meanwhile; then both get listed.
      await h.api("POST", `/v1/apps/${APP}/volumes/${vol.id}/snapshots`);
      await h.control.time.advance(60_000);
      const err = (await create.catch((e: Error) => e)) as AmbiguousTakeOverError;
      // The retry policy's one rule, as for a volume create: the same error class and code.
      expect(err).toBeInstanceOf(AmbiguousTakeOverError);
      expect(err.code).toBe("AMBIGUOUS_TAKEOVER");
      const listed = (await h.state()).snapshots.filter((s) => s.volume_id === vol.id).map((s) => s.id);
      expect(err.candidates.map((c) => c.id).sort()).toEqual([...listed].sort());
      expect(listed).toHaveLength(2);
      expect(err.message).toMatch(/2 new snapshots of volume .* none was taken over/);
      expect(err.message).toMatch(/does not say whose each is.* run `pulumi up` again to take a new one/);
      expect(err).not.toHaveProperty("id");
    } finally {
      await h.control.time.speed(1);
    }
  });
});

describe("a password rotation whose answer is lost", () => {
  it("rotates again, so the password the stack records is the one from the last rotation", async () => {
    await dropAnswers("POST", "/v1/postgres/demo-pg/users/app_user/rotate_password");
    const since = (await h.requests()).length;
    const { outs } = await runtime.postgresPasswordRotation.create(
      withProvider({ clusterId: "demo-pg", username: "app_user" }),
    );
    expect(typeof outs.password).toBe("string");
    // The first rotation ran but its answer (its password) was lost; the second one's arrived.
    const rotations = await calls(since, "POST", "/rotate_password");
    expect(rotations.map((r) => r.status)).toEqual([200, 200]);
  });
});

describe("provider errors", () => {
  it("name the package version, for bug reports (`pulumi about` cannot show it)", async () => {
    const { version } = JSON.parse(readFileSync(join(__dirname, "..", "..", "..", "package.json"), "utf8"));
    const err = await runtime.volume
      .create(withProvider({ app: "no-such-app", name: "x", region: "iad" }))
      .catch((e: Error) => e);
    expect((err as Error).message).toMatch(/404/);
    expect((err as Error).message.endsWith(`[pulumi-platform ${version}]`)).toBe(true);
  });
});
