import { execFile } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ensurePythonEnv } from "../../scripts/lib/python-env";
import { step } from "../support/step";

// The Python and Go mocks (pulumi_platform.testing, platform/platformtest: scripts/sdk-extras/,
// shipped in the generated SDKs) as a team of each language runs its unit tests: the examples'
// tests under `python -m unittest` in the venv of the Python SDK's wheel
// (scripts/lib/python-env.js), and `go test` on the Go SDK. Both start this package's plugin (its
// bin at the repository's root, named by PULUMI_PLATFORM_PLUGIN), which answers every resource's
// check and its kind's mock outputs; no engine, no emulator. Every output of all five kinds
// resolves, and a program preview refuses fails its test with preview's line.

const root = path.resolve(__dirname, "..", "..");
const examples = path.join(root, "examples");

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

function runAsync(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(cmd, args, { cwd, env, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === "number" ? err.code : 1) : 0;
      resolve({ code, stdout: String(stdout), stderr: String(stderr) });
    });
  });
}

/** The environment a test of either language runs in: the plugin named, Node ≥ 22 first on PATH. */
function mockEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PULUMI_PLATFORM_PLUGIN: path.join(root, "pulumi-resource-platform"),
    PATH: [path.dirname(process.execPath), process.env.PATH ?? ""].join(path.delimiter),
    PYTHONDONTWRITEBYTECODE: "1",
  };
  for (const key of ["PLATFORM_API_TOKEN", "PLATFORM_API_URL"]) delete env[key];
  return env;
}

describe("the Python mocks (pulumi_platform.testing)", () => {
  it("resolve every output of all five kinds, and a refused program fails its test with preview's line; mypy --strict passes", async () => {
    const venv = await step("the venv", async () => ensurePythonEnv());
    const dir = path.join(examples, "python-unit-testing");
    const tests = await step("python -m unittest", () =>
      runAsync(venv.python, ["-m", "unittest", "-v", "test_program"], dir, mockEnv()),
    );
    expect(tests.stderr).toMatch(/Ran 4 tests in .*\n\nOK/);
    expect(tests.code, tests.stderr).toBe(0);
    const checked = await step("mypy --strict", () =>
      runAsync(
        venv.python,
        [
          "-m",
          "mypy",
          "--strict",
          "--cache-dir",
          path.join(venv.venv, ".mypy_cache"),
          "program.py",
          "test_program.py",
        ],
        dir,
        mockEnv(),
      ),
    );
    expect(checked.code, checked.stdout).toBe(0);
    // The module itself (mypy leaves an installed package's own errors unreported).
    const module = await step("mypy --strict on pulumi_platform/testing.py", () =>
      runAsync(
        venv.python,
        ["-m", "mypy", "--strict", "--cache-dir", path.join(venv.venv, ".mypy_cache"), "testing.py"],
        path.join(root, "scripts", "sdk-extras", "python", "pulumi_platform"),
        mockEnv(),
      ),
    );
    expect(module.code, module.stdout).toBe(0);
  });

  it("a program preview refuses fails the test with one error naming the resource and the property", async () => {
    const venv = await step("the venv", async () => ensurePythonEnv());
    const dir = path.join(examples, "python-unit-testing");
    // A unittest that expects nothing wrong of a program with a negative size.
    const script = [
      "import unittest",
      "import pulumi",
      "from pulumi_platform.testing import PlatformMocks",
      "pulumi.runtime.set_mocks(PlatformMocks(), preview=False)",
      "import program",
      "class ProgramTest(unittest.TestCase):",
      "    @pulumi.runtime.test",
      "    def test_volume(self):",
      "        return program.build(size_gb=-1)['data'].volume_id",
      "unittest.main()",
    ].join("\n");
    const ran = await step("a test of a negative size, expecting none", () =>
      runAsync(venv.python, ["-c", script], dir, mockEnv()),
    );
    expect(ran.code).not.toBe(0);
    expect(ran.stderr).toContain("ERROR: test_volume");
    expect(ran.stderr).toContain(
      "pulumi_platform.testing.PlatformCheckError: platform:index:Volume resource 'data': property sizeGb value {-1} has a problem: sizeGb must be a whole number from 1 to 500000 GB (got -1)",
    );
  });
});

describe("the Go mocks (platform/platformtest)", () => {
  it("resolve every output of all five kinds, and a refused program fails its test with preview's line", async () => {
    const dir = path.join(examples, "go-unit-testing");
    const ran = await step("go test", () =>
      runAsync("go", ["test", "-count=1", "-v", "./..."], dir, { ...mockEnv(), GOFLAGS: "-trimpath" }),
    );
    expect(ran.code, ran.stdout + ran.stderr).toBe(0);
    for (const name of [
      "TestEveryOutputOfEveryKindResolvesRealistically",
      "TestANegativeSizeFailsWithPreviewsMessage",
      "TestABadHostnameFailsWithPreviewsMessage",
    ]) {
      expect(ran.stdout).toContain(`--- PASS: ${name}`);
    }
    expect(ran.stdout).toContain(
      "platform:index:Volume resource 'data': property sizeGb value {-1} has a problem: sizeGb must be a whole number from 1 to 500000 GB (got -1)",
    );
  });
});
