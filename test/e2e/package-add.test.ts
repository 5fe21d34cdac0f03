import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createOfflineBackend,
  ensurePulumiCli,
  offlineEngineEnv,
  repoRoot,
} from "../../scripts/lib/pulumi-engine";
import { tempDir } from "../support/emulator";
import { step } from "../support/step";
import { pulumiCli } from "../support/yaml-program";

// `pulumi package add ./node_modules/.bin/pulumi-resource-platform` (docs/plugin.md, "Other
// languages") asks the plugin for its schema, then has the project's LANGUAGE HOST generate the
// SDK (GeneratePackage) and link it into the project (Link: go.mod's replace, package.json's
// dependency). What is tested here is the part no host takes part in, through the real CLI and
// the npm package as a user installs it (a tarball of this checkout): how the CLI resolves the
// plugin from that path, starts it and reads its schema, which must be the committed
// sdk-gen/schema.json (the schema the committed SDKs are generated from), and how the CLI binds
// it (`pulumi package info`, the same resolution as `package add`): every resource, the outputs
// the generated classes type (`app` a string always present, `sizeGb` an integer, no `Any`).
//
// Not tested here, and why: the generation and the link themselves (until issue 44 this file's
// predecessor in go-quickstart.test.ts ran `package add` for Go and TypeScript with hosts built
// from source: the generated files, go.mod's replace, package.json's entry, a program compiled on
// them). The CLI built here from Go modules (scripts/ensure-pulumi) has no Go host and only the
// legacy nodejs host of sdk v3.68.0, and the hosts of today are not served by any registry this
// project may use. `pulumi package gen-sdk` makes the same host call (packages.GenSDK), so it
// fails too: "no language plugin 'pulumi-language-go' found", "method GeneratePackage not
// implemented" (nodejs). What the Go host would generate is held elsewhere: Pulumi's Go generator
// at the CLI's version (the code the host runs) writes sdk-gen/go from that schema, and
// `npm run gen-sdks -- --check` (CI) fails when the committed SDK differs, then builds and vets it
// and the Go quickstart on it. TypeScript users need no generated SDK (`pulumi-platform/plugin`
// has the plugin's classes). An official CLI carries the hosts; there `pulumi package add` works
// as docs/plugin.md describes.

const SCHEMA = path.join(repoRoot, "sdk-gen", "schema.json");

describe("the plugin as `pulumi package add` finds it: from the installed npm package, through the real CLI", () => {
  let dir: string;
  beforeAll(async () => {
    dir = tempDir("package-add-");
    // The npm package as a user installs it (from a tarball of this checkout: dist/ is built).
    const packed = execFileSync("npm", ["pack", "--ignore-scripts", "--pack-destination", dir, "--silent"], {
      cwd: repoRoot,
      encoding: "utf8",
    }).trim();
    fs.writeFileSync(path.join(dir, "Pulumi.yaml"), "name: package-add\nruntime: nodejs\n");
    const pulumiVersion = JSON.parse(
      fs.readFileSync(path.join(repoRoot, "node_modules", "@pulumi", "pulumi", "package.json"), "utf8"),
    ).version;
    fs.writeFileSync(
      path.join(dir, "package.json"),
      JSON.stringify({
        name: "package-add",
        private: true,
        dependencies: { "@pulumi/pulumi": pulumiVersion, "pulumi-platform": `file:./${packed}` },
      }),
    );
    execFileSync("npm", ["install", "--no-audit", "--no-fund"], { cwd: dir, stdio: "pipe" });
  });
  afterAll(() => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** `pulumi <args>` in the project, with the offline engine's environment: its stdout. */
  async function pulumi(args: string[]): Promise<string> {
    const cliDir = ensurePulumiCli();
    const backend = createOfflineBackend("package-add");
    try {
      return await pulumiCli({ env: offlineEngineEnv(backend, cliDir), cliDir }, undefined, dir, args);
    } finally {
      backend.remove();
    }
  }

  it("`pulumi package get-schema ./node_modules/.bin/pulumi-resource-platform` prints sdk-gen/schema.json", async () => {
    const bin = path.join(dir, "node_modules", ".bin", "pulumi-resource-platform");
    expect(fs.existsSync(bin), "npm install puts the plugin's bin in node_modules/.bin").toBe(true);
    const printed = await step("pulumi package get-schema", () =>
      pulumi(["package", "get-schema", "./node_modules/.bin/pulumi-resource-platform"]),
    );
    expect(JSON.parse(printed)).toEqual(JSON.parse(fs.readFileSync(SCHEMA, "utf8")));
  });

  it("`pulumi package info` binds that schema as `package add` does: every resource, typed outputs, required inputs", async () => {
    const schema = JSON.parse(fs.readFileSync(SCHEMA, "utf8")) as { resources: Record<string, unknown> };
    const listed = await step("pulumi package info", () =>
      pulumi(["package", "info", "./node_modules/.bin/pulumi-resource-platform"]),
    );
    expect(listed).toContain(`Resources: ${Object.keys(schema.resources).length}`);
    for (const token of Object.keys(schema.resources)) {
      expect(listed).toMatch(new RegExp(`^ - ${token.split(":").pop()}: `, "m"));
    }
    const volume = await step("pulumi package info --resource Volume", () =>
      pulumi(["package", "info", "./node_modules/.bin/pulumi-resource-platform", "--resource", "Volume"]),
    );
    expect(volume).toMatch(/^Resource: platform:index:Volume$/m);
    const [inputs, outputs] = volume.split(/^Outputs:$/m);
    // What the generated SDKs type (`App pulumi.StringOutput`, `sizeGb: pulumi.Output<number>`):
    // always-present outputs (`*`) of a known type, none `Any`.
    expect(outputs).toMatch(/^ - app \(string\*\): /m);
    expect(outputs).toMatch(/^ - sizeGb \(integer\*\): /m);
    expect(outputs).toMatch(/^ - volumeId \(string\*\): /m);
    expect(outputs).toMatch(/^ - attachedMachineId \(string\): /m);
    // (A value of no known shape prints `pulumi:pulumi:Any`, as a certificate's validationErrors entries.)
    expect(volume).not.toContain("pulumi:pulumi:Any");
    expect(inputs).toMatch(/^ - app \(string\*\): /m);
    expect(inputs).toMatch(/^ - name \(string\*\): /m);
    expect(inputs).toMatch(/^ - sizeGb \(integer\): /m);
  });
});
