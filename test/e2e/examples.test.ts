import { type ChildProcess, execFile, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type ControlClient,
  createControlClient,
  type DnsRecord,
  type RunningEmulator,
  startEmulator,
} from "../../emulator";
import { selfSignedChain } from "../../examples/quickstart/self-signed";
import { RESOURCE_KEYS } from "../../provider/kinds/registry";
import { withStack } from "../support/engine";

// Every example runs here, the way its README says, so none can rot: the Pulumi projects through
// the real engine (up, the outputs a user reads, a change, destroy, nothing left behind), the two
// sdk scripts as child processes against the emulator.

const repoRoot = path.resolve(__dirname, "..", "..");
const examplesDir = path.join(repoRoot, "examples");
const example = (name: string) => path.join(examplesDir, name);

const PULUMI_EXAMPLES = ["quickstart", "volumes", "certificates", "postgres-rotation"];
const SCRIPT_EXAMPLES = ["task-hold", "replication-wait"];
// Automation API programs: their inline programs need a Pulumi.yaml; run by test/e2e/fleet.test.ts.
const AUTOMATION_EXAMPLES = ["fleet"];
// A program with its own unit tests under pulumi-platform/testing's mocks: run by the unit project.
const UNIT_TEST_EXAMPLES = ["unit-testing"];
// Go programs on the generated SDK (sdk-gen/go): run by test/e2e/go-quickstart.test.ts.
const GO_EXAMPLES = ["go-quickstart"];
// Python programs on the generated SDK (sdk-gen/python): run by test/e2e/python-quickstart.test.ts.
const PYTHON_EXAMPLES = ["python-quickstart"];
// Unit tests of a Python or Go program under the SDKs' mocks (run by language-mocks.test.ts): no stack.
const LANGUAGE_MOCK_EXAMPLES: Record<string, string[]> = {
  "python-unit-testing": ["program.py", "test_program.py", "README.md"],
  "go-unit-testing": ["go.mod", "go.sum", "program.go", "program_test.go", "README.md"],
};

let emu: RunningEmulator;
let control: ControlClient;
let tmpDir: string;

beforeAll(async () => {
  tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), "examples-e2e-"));
  emu = await startEmulator({
    port: 0,
    eventsPort: 0,
    quiet: true,
    taskSocket: path.join(tmpDir, "api.sock"),
    timing: { restoreDelayMs: 300, snapshotListDelayMs: 300, warmAfterMs: 1_000, coldAfterMs: 2_000 },
  });
  control = createControlClient(emu.url, emu.token);
});
afterAll(async () => {
  await emu?.close();
  if (tmpDir) fs.rmSync(tmpDir, { recursive: true, force: true });
});
beforeEach(async () => {
  await control.reset();
});

// biome-ignore lint/suspicious/noExplicitAny: JSON answers of the emulator, checked by the expectations
async function api<T = any>(method: string, p: string, body?: unknown): Promise<T> {
  const res = await fetch(new URL(p, emu.url), {
    method,
    headers: {
      authorization: `Bearer ${emu.token}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${p} failed with ${res.status}: ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

function platformConfig() {
  return { "platform:apiUrl": emu.url, "platform:apiToken": { value: emu.token, secret: true } };
}

/** What a destroy must leave: no live volume and no certificate in the emulator. */
async function expectEmulatorEmpty(): Promise<void> {
  const state = await control.state();
  expect(state.volumes.filter((v: { state: string }) => v.state !== "destroyed")).toEqual([]);
  expect(state.certificates).toEqual([]);
}

/** Sets DNS records in the emulator and runs a check of each hostname; returns the new statuses. */
async function setDnsAndCheck(
  app: string,
  records: DnsRecord[],
  hostnames: string[],
): Promise<Record<string, string>> {
  await control.dns.set(records);
  const statuses: Record<string, string> = {};
  for (const hostname of hostnames) {
    const checked = await api("POST", `/v1/apps/${app}/certificates/${encodeURIComponent(hostname)}/check`);
    statuses[hostname] = checked.status;
  }
  return statuses;
}

describe("examples/", () => {
  it("every example is a self-contained project with a README, and every one is run below", () => {
    const dirs = fs
      .readdirSync(examplesDir, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      // The schema's examples (one per resource and language) are checked apart: see below.
      .filter((name) => name !== "schema")
      .sort();
    expect(dirs).toEqual(
      [
        ...PULUMI_EXAMPLES,
        ...SCRIPT_EXAMPLES,
        ...AUTOMATION_EXAMPLES,
        ...UNIT_TEST_EXAMPLES,
        ...GO_EXAMPLES,
        ...PYTHON_EXAMPLES,
        ...Object.keys(LANGUAGE_MOCK_EXAMPLES),
      ].sort(),
    );
    for (const name of dirs) {
      const files =
        LANGUAGE_MOCK_EXAMPLES[name] ??
        (GO_EXAMPLES.includes(name)
          ? ["go.mod", "go.sum", "main.go", "README.md"]
          : PYTHON_EXAMPLES.includes(name)
            ? ["requirements.txt", "program.py", "__main__.py", "automation.py", "README.md"]
            : ["package.json", "tsconfig.json", "index.ts", "README.md"]);
      for (const file of files) {
        expect(fs.existsSync(path.join(example(name), file)), `${name}/${file}`).toBe(true);
      }
      expect(
        fs.existsSync(path.join(example(name), "node_modules")),
        `${name} has its own node_modules`,
      ).toBe(false);
      expect(fs.existsSync(path.join(example(name), "Pulumi.yaml"))).toBe(
        !SCRIPT_EXAMPLES.includes(name) && !(name in LANGUAGE_MOCK_EXAMPLES),
      );
    }
    // The schema's examples: each resource's in every language, read by gen-sdks into its description
    // (the TypeScript ones type-checked by npm run typecheck, Python by python-quickstart.test.ts,
    // Go by gen-sdks --check, YAML previewed by plugin-yaml.test.ts).
    const schemaDir = path.join(examplesDir, "schema");
    expect(
      fs
        .readdirSync(schemaDir)
        .filter((k) => fs.statSync(path.join(schemaDir, k)).isDirectory())
        .sort(),
    ).toEqual([...RESOURCE_KEYS].sort());
    // The repository root runs the quickstart.
    expect(fs.readFileSync(path.join(repoRoot, "Pulumi.yaml"), "utf8")).toMatch(
      /^main: examples\/quickstart$/m,
    );
  });

  it("every example type-checks with its own tsconfig (strict)", async () => {
    const tsc = path.join(repoRoot, "node_modules", "typescript", "bin", "tsc");
    const check = (name: string) =>
      new Promise<string>((resolve) => {
        execFile(process.execPath, [tsc, "--noEmit", "-p", example(name)], (err, stdout, stderr) =>
          resolve(err ? `${name}:\n${stdout}${stderr}` : ""),
        );
      });
    const names = [...PULUMI_EXAMPLES, ...SCRIPT_EXAMPLES, ...AUTOMATION_EXAMPLES, ...UNIT_TEST_EXAMPLES];
    const problems: string[] = [];
    // Two at a time: CI has two cores.
    for (let i = 0; i < names.length; i += 2) {
      problems.push(...(await Promise.all(names.slice(i, i + 2).map(check))));
    }
    expect(problems.filter(Boolean).join("\n")).toBe("");
  });
});

describe("Pulumi examples through the real engine", () => {
  it("quickstart (from the repository root): everything in one up, certificates turn active, the volume grows in place, destroy", async () => {
    const chain = await selfSignedChain("api.demo.example.com");
    const config = {
      ...platformConfig(),
      customFullchain: chain.fullchain,
      customPrivateKey: { value: chain.privateKey, secret: true },
    };
    await withStack({ programDir: repoRoot, config }, async ({ stack }) => {
      const up = await stack.up();
      expect(up.summary.resourceChanges).toMatchObject({ create: 8 });
      const out = (key: string) => up.outputs[key]?.value;
      expect(out("dataVolume")).toMatchObject({ sizeGb: 3, needsRestart: false });
      expect(out("restoredVolume")).toMatchObject({ state: "created", sizeGb: 3 });
      expect(out("snapshotId")).toMatch(/\S/);
      expect(out("wildcardCertificate")).toMatchObject({
        hostname: "*.demo.example.com",
        status: "pending_validation",
      });
      expect(out("apiCertificate")).toMatchObject({
        hostname: "api.demo.example.com",
        status: "pending_ownership",
        issuer: "pulumi-platform quickstart CA",
      });
      expect(out("postgres")).toMatchObject({ username: "app_user" });
      expect(String(out("postgres").password).length).toBeGreaterThan(8);

      // The DNS records the outputs name are exactly what the certificates need.
      const records = [...out("wildcardCertificate").dnsRecords, ...out("apiCertificate").dnsRecords];
      expect(records.map((r: { type: string }) => r.type).sort()).toEqual(["CNAME", "CNAME", "CNAME", "TXT"]);
      const statuses = await setDnsAndCheck("demo-app", records, [
        "*.demo.example.com",
        "api.demo.example.com",
      ]);
      expect(statuses).toEqual({ "*.demo.example.com": "active", "api.demo.example.com": "active" });

      // `up` does not read the platform; a refresh records the new statuses.
      await stack.refresh();

      // Grow in place while attached: needsRestart tells the machine must restart.
      const volumeId = out("dataVolume").id;
      await control.volumes.attach(volumeId, "m-e2e");
      await stack.setConfig("sizeGb", { value: "5" });
      const grown = await stack.up();
      expect(grown.summary.resourceChanges).toMatchObject({ update: 1 });
      expect(grown.outputs.dataVolume?.value).toMatchObject({ id: volumeId, sizeGb: 5, needsRestart: true });
      expect(grown.outputs.wildcardCertificate?.value.status).toBe("active");
      expect(grown.outputs.apiCertificate?.value.status).toBe("active");

      await control.volumes.detach(volumeId);
      const destroy = await stack.destroy();
      expect(destroy.summary.resourceChanges).toMatchObject({ delete: 8 });
      await expectEmulatorEmpty();
    });
  });

  it("volumes: a snapshot restored and a fork in one up, then a grow-only extend", async () => {
    await withStack({ programDir: example("volumes"), config: platformConfig() }, async ({ stack }) => {
      const up = await stack.up();
      const data = up.outputs.dataVolume?.value;
      expect(data).toMatchObject({ sizeGb: 1, snapshotRetention: 5 });
      expect(up.outputs.dataSnapshot?.value.snapshotId).toMatch(/\S/);
      expect(up.outputs.restoredVolume?.value).toMatchObject({ state: "created", sizeGb: 1 });
      expect(up.outputs.forkVolume?.value).toMatchObject({ sizeGb: 1, region: "iad" });
      expect(up.outputs.forkVolume?.value.id).not.toBe(data.id);

      await stack.setConfig("sizeGb", { value: "2" });
      const grown = await stack.up();
      expect(grown.summary.resourceChanges).toMatchObject({ update: 1 });
      expect(grown.outputs.dataVolume?.value).toMatchObject({ id: data.id, sizeGb: 2 });

      // Shrinking is refused at preview, before anything changes.
      await stack.setConfig("sizeGb", { value: "1" });
      await expect(stack.preview()).rejects.toThrow(/volumes can only grow/);
      await stack.setConfig("sizeGb", { value: "2" });

      await stack.destroy();
      await expectEmulatorEmpty();
    });
  });

  it("certificates: ACME, custom, both kinds on one hostname and a wildcard; destroy removes every hostname", async () => {
    const domain = "certs.example.com";
    const chain = await selfSignedChain(`www.${domain}`, `api.${domain}`);
    const config = {
      ...platformConfig(),
      fullchain: chain.fullchain,
      privateKey: { value: chain.privateKey, secret: true },
    };
    await withStack({ programDir: example("certificates"), config }, async ({ stack }) => {
      const up = await stack.up();
      // Each resource reports its hostname's overall status when it was created; www's ACME
      // request and custom import run in parallel, so its ACME side may have seen either.
      expect(up.outputs.statuses?.value).toMatchObject({
        wildcard: "pending_validation",
        api: "pending_ownership",
        wwwCustom: "pending_ownership",
      });
      expect(["pending_validation", "pending_ownership"]).toContain(up.outputs.statuses?.value.wwwAcme);
      expect(up.outputs.wildcardDns?.value.acmeChallenge.name).toBe(`_acme-challenge.${domain}`);
      expect(up.outputs.apiOwnershipRecord?.value).toMatchObject({
        type: "TXT",
        name: `_platform-ownership.api.${domain}`,
      });
      const www = (await api("GET", `/v1/apps/demo-app/certificates?filter=www.${domain}`)).certificates;
      expect(www).toMatchObject([
        { hostname: `www.${domain}`, acme_requested: true, has_custom_certificate: true },
      ]);

      const wildcardDns = up.outputs.wildcardDns?.value;
      const wwwDns = up.outputs.wwwDns?.value;
      const statuses = await setDnsAndCheck(
        "demo-app",
        [
          { type: "CNAME", name: wildcardDns.acmeChallenge.name, value: wildcardDns.acmeChallenge.target },
          { type: "CNAME", name: wwwDns.acmeChallenge.name, value: wwwDns.acmeChallenge.target },
          {
            type: "TXT",
            name: up.outputs.apiOwnershipRecord?.value.name,
            value: up.outputs.apiOwnershipRecord?.value.value,
          },
          { type: "TXT", name: wwwDns.ownership.name, value: wwwDns.ownership.appValue },
        ],
        [`*.${domain}`, `api.${domain}`, `www.${domain}`],
      );
      expect(statuses).toEqual({
        [`*.${domain}`]: "active",
        [`api.${domain}`]: "active",
        [`www.${domain}`]: "active",
      });

      const destroy = await stack.destroy();
      expect(destroy.summary.resourceChanges).toMatchObject({ delete: 5 });
      await expectEmulatorEmpty();
    });
  });

  it("postgres-rotation: a secret password, and a new one when the trigger changes", async () => {
    await withStack(
      { programDir: example("postgres-rotation"), config: platformConfig() },
      async ({ stack }) => {
        const up = await stack.up();
        expect(up.outputs.username?.value).toBe("app_user");
        expect(up.outputs.password?.secret).toBe(true);
        const first = String(up.outputs.password?.value);

        await stack.setConfig("rotation", { value: "2025-02" });
        const again = await stack.up();
        expect(again.summary.resourceChanges).toMatchObject({ replace: 1 });
        expect(String(again.outputs.password?.value)).not.toBe(first);

        await stack.destroy();
      },
    );
  });
});

describe("sdk script examples", () => {
  it("task-hold keeps the instance running while the job holds its task; it pauses once released", async () => {
    const run = runScript("task-hold", {
      PLATFORM_TASK_SOCKET: emu.taskSocket,
      JOB_SECONDS: "4",
      TASK_TTL_SECONDS: "2",
      TASK_REFRESH_MS: "500",
    });
    await run.waitFor(/holding task nightly-export/);
    // Longer than both the task's 2 s expiry and the 1 s idle time before `warm`.
    await sleep(2_500);
    expect(await control.instance.get()).toMatchObject({ stage: "running", liveTasks: 1 });

    const { code, stdout, stderr } = await run.exit;
    expect(code, stderr).toBe(0);
    expect(stdout).toMatch(/job: 4\/4 s done; live tasks: nightly-export/);
    expect(stdout).toMatch(/task released/);
    expect(await control.instance.get()).toMatchObject({ liveTasks: 0 });

    await control.time.advance(1_500);
    expect((await control.instance.get()).stage).toBe("warm");
    await control.time.advance(2_500);
    expect((await control.instance.get()).stage).toBe("cold");
  });

  it("replication-wait sees the replica reach the primary's position", async () => {
    const run = runScript("replication-wait", {
      PLATFORM_API_URL: emu.url,
      PLATFORM_API_TOKEN: emu.token,
      DB_NAME: "orders.db",
      WRITES: "3",
    });
    const { code, stdout, stderr } = await run.exit;
    expect(code, stderr).toBe(0);
    const primary = /primary position: txID (\w+) checksum (\w+)/.exec(stdout);
    expect(primary?.[1]).toBe("0000000000000003");
    expect(stdout).toContain(`replica reached txID ${primary?.[1]} checksum ${primary?.[2]}: safe to read`);

    const nodes = await control.db.nodes();
    expect(nodes.length).toBeGreaterThan(1);
    for (const node of nodes) expect(node.databases["orders.db"]?.txID).toBe("0000000000000003");
  });
});

/** Runs an example script the way its README does (ts-node, type-checked), collecting its output. */
function runScript(name: string, env: Record<string, string>) {
  const dir = example(name);
  const child: ChildProcess = spawn(process.execPath, ["-r", "ts-node/register", "index.ts"], {
    cwd: dir,
    env: { ...process.env, TS_NODE_PROJECT: path.join(dir, "tsconfig.json"), ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  const waiters: { pattern: RegExp; resolve: () => void }[] = [];
  child.stdout?.on("data", (d) => {
    stdout += d;
    for (const w of [...waiters]) if (w.pattern.test(stdout)) w.resolve();
  });
  child.stderr?.on("data", (d) => {
    stderr += d;
  });
  const exit = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.once("exit", (code) => resolve({ code, stdout, stderr })),
  );
  const timer = setTimeout(() => child.kill("SIGKILL"), 120_000);
  void exit.then(() => clearTimeout(timer));
  return {
    exit,
    waitFor(pattern: RegExp): Promise<void> {
      if (pattern.test(stdout)) return Promise.resolve();
      return new Promise((resolve, reject) => {
        waiters.push({ pattern, resolve });
        void exit.then(() =>
          reject(new Error(`${name} exited before printing ${pattern}: ${stdout}${stderr}`)),
        );
      });
    },
  };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
