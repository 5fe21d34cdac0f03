import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { createInterface } from "node:readline";
import ts from "typescript";
import { beforeAll, describe, expect, test } from "vitest";
import { tempDir } from "../../support/emulator";

const root = resolve(__dirname, "../../..");
const node = join(root, "node_modules", ".bin", "node");
let cli: string;

/** Transpiles emulator/, sdk/schemas/, sdk/simulation/ and the Node floor's check to CommonJS in a temp dir (fast, no type check). */
function buildCli(): string {
  const out = tempDir();
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
    );
  for (const file of [
    ...walk(join(root, "emulator")),
    ...walk(join(root, "sdk", "schemas")),
    ...walk(join(root, "sdk", "simulation")),
    join(root, "sdk", "node-floor-check.ts"),
    join(root, "sdk", "node-floor-bin.ts"),
  ]) {
    const { outputText } = ts.transpileModule(readFileSync(file, "utf8"), {
      compilerOptions: {
        module: ts.ModuleKind.CommonJS,
        target: ts.ScriptTarget.ES2023,
        esModuleInterop: true,
      },
    });
    const target = join(out, relative(root, file)).replace(/\.ts$/, ".js");
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, outputText);
  }
  return join(out, "emulator", "cli.js");
}

interface Started {
  child: ChildProcess;
  line: Record<string, string>;
  stdout: string[];
  stderr: string[];
}

function startCli(args: string[]): Promise<Started> {
  const child = spawn(node, [cli, ...args], {
    env: { ...process.env, NODE_PATH: join(root, "node_modules") },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const stdout: string[] = [];
  const stderr: string[] = [];
  child.stderr?.on("data", (d) => stderr.push(String(d)));
  return new Promise((resolvePromise, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on("line", (l) => {
      stdout.push(l);
      if (stdout.length === 1) resolvePromise({ child, line: JSON.parse(l), stdout, stderr });
    });
    child.once("exit", (code) => reject(new Error(`exited ${code}: ${stderr.join("")}`)));
  });
}

const exited = (child: ChildProcess) =>
  new Promise<number | null>((r) =>
    child.exitCode !== null ? r(child.exitCode) : child.once("exit", (c) => r(c)),
  );

beforeAll(() => {
  cli = buildCli();
});

describe("platform-emulator CLI", () => {
  test("the source starts with a node shebang (the package bin)", () => {
    expect(readFileSync(join(root, "emulator", "cli.ts"), "utf8").split("\n")[0]).toBe("#!/usr/bin/env node");
  });

  test("prints exactly one JSON start line, serves with the token, and SIGTERM exits 0 removing the socket", async () => {
    const dir = tempDir();
    const socket = join(dir, "api.sock");
    const state = join(dir, "state.json");
    const seed = join(dir, "seed.json");
    writeFileSync(seed, JSON.stringify({ apps: ["extra-app"], postgres: [{ name: "pg2", users: ["u1"] }] }));
    const run = await startCli([
      "--port",
      "0",
      "--token",
      "cli-token",
      "--task-socket",
      socket,
      "--events-port",
      "0",
      "--state",
      state,
      "--seed",
      seed,
      "--restore-delay-ms",
      "10",
    ]);
    expect(Object.keys(run.line).sort()).toEqual(["eventsUrl", "taskSocket", "token", "url"]);
    expect(run.line.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(run.line.token).toBe("cli-token");
    expect(run.line.taskSocket).toBe(socket);
    expect(run.line.eventsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/events$/);
    expect(statSync(socket).isSocket()).toBe(true);

    const headers = { authorization: "Bearer cli-token", "content-type": "application/json" };
    expect((await fetch(`${run.line.url}/__emulator/health`, { headers })).status).toBe(200);
    expect((await fetch(`${run.line.url}/v1/apps/extra-app/volumes`, { headers })).status).toBe(200);
    const created = await fetch(`${run.line.url}/v1/apps/extra-app/volumes`, {
      method: "POST",
      headers,
      body: JSON.stringify({ name: "d" }),
    });
    expect(created.status).toBe(200);
    const rotate = await fetch(`${run.line.url}/v1/postgres/pg2/users/u1/rotate_password`, {
      method: "POST",
      headers,
    });
    expect(rotate.status).toBe(200);

    run.child.kill("SIGTERM");
    expect(await exited(run.child)).toBe(0);
    expect(existsSync(socket)).toBe(false);
    expect(run.stdout).toHaveLength(1);
    expect(JSON.parse(readFileSync(state, "utf8")).volumes).toHaveLength(1);
  });

  test("without --token a random token is generated", async () => {
    const run = await startCli(["--port", "0", "--task-socket", join(tempDir(), "api.sock"), "--quiet"]);
    expect((run.line.token ?? "").length).toBeGreaterThanOrEqual(24);
    run.child.kill("SIGINT");
    expect(await exited(run.child)).toBe(0);
  });

  test("--responses sparse answers sparse; --rate-limit N/s answers 429 with Retry-After beyond N", async () => {
    const run = await startCli([
      "--port",
      "0",
      "--token",
      "t",
      "--task-socket",
      join(tempDir(), "api.sock"),
      "--quiet",
      "--responses",
      "sparse",
      "--rate-limit",
      "0.01/s",
    ]);
    try {
      const headers = { authorization: "Bearer t", "content-type": "application/json" };
      const acme = await fetch(`${run.line.url}/v1/apps/demo-app/certificates/acme`, {
        method: "POST",
        headers,
        body: JSON.stringify({ hostname: "app.example.com" }),
      });
      expect(acme.status).toBe(201);
      const body = (await acme.json()) as { certificates: unknown };
      expect(body).not.toHaveProperty("dns_provider");
      expect(body.certificates).toBeNull();
      // One request per 100 s: the bucket held one, the next waits for the refill.
      const limited = await fetch(`${run.line.url}/v1/apps/demo-app/volumes`, { headers });
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(99);
      expect(((await limited.json()) as { error: string }).error).toContain("rate limited");
      // The control API is never limited.
      expect((await fetch(`${run.line.url}/__emulator/health`, { headers })).status).toBe(200);
    } finally {
      run.child.kill("SIGTERM");
      expect(await exited(run.child)).toBe(0);
    }
  });

  test.each([
    [["--responses", "thin"], "--responses must be one of full, sparse"],
    [["--rate-limit", "0"], "--rate-limit must be a positive number"],
    [["--rate-limit", "fast"], "--rate-limit must be a positive number"],
  ])("%j exits 2 naming the flag", async (args, message) => {
    const child = spawn(node, [cli, "--port", "0", ...args], {
      env: { ...process.env, NODE_PATH: join(root, "node_modules") },
    });
    let err = "";
    child.stderr.on("data", (d) => (err += d));
    expect(await exited(child)).toBe(2);
    expect(err).toContain(message);
  });

  test("an unknown flag exits 2 with the usage on stderr", async () => {
    const child = spawn(node, [cli, "--bogus"], {
      env: { ...process.env, NODE_PATH: join(root, "node_modules") },
    });
    let err = "";
    child.stderr.on("data", (d) => (err += d));
    expect(await exited(child)).toBe(2);
    expect(err).toContain("usage: platform-emulator");
  });
});

// `npx platform-emulator &` runs the bin under `npm exec` and `sh -c`; none of them passes its
// own ending on, so the emulator looks at its parent and stops once it is gone.
describe("platform-emulator stops with the process that started it", () => {
  /** A user's project where npm linked the bin: node_modules/.bin/platform-emulator. */
  function userProject(): string {
    const dir = tempDir();
    writeFileSync(
      join(dir, "package.json"),
      JSON.stringify({ name: "user", version: "1.0.0", private: true }),
    );
    mkdirSync(join(dir, "node_modules", ".bin"), { recursive: true });
    const bin = join(dir, "node_modules", ".bin", "platform-emulator");
    writeFileSync(bin, `#!/usr/bin/env node\nrequire(${JSON.stringify(cli)});\n`, { mode: 0o755 });
    return dir;
  }

  /** The environment of a user's shell: Node 22 first on PATH, the package's dependencies found. */
  const userEnv = () => ({
    ...process.env,
    PATH: `${join(root, "node_modules", ".bin")}:${process.env.PATH ?? ""}`,
    NODE_PATH: join(root, "node_modules"),
  });

  /** The emulator's start line (stdout) and its pid (its log line on stderr). */
  function started(child: ChildProcess): Promise<{ url: string; pid: number }> {
    let url: string | undefined;
    let pid: number | undefined;
    return new Promise((resolvePromise, reject) => {
      const settle = () => url !== undefined && pid !== undefined && resolvePromise({ url, pid });
      createInterface({ input: child.stdout! }).on("line", (l) => {
        url ??= (JSON.parse(l) as { url: string }).url;
        settle();
      });
      createInterface({ input: child.stderr! }).on("line", (l) => {
        const found = /"pid":(\d+)/.exec(l);
        if (found && pid === undefined) pid = Number(found[1]);
        settle();
      });
      child.once("exit", (code) =>
        reject(new Error(`the launcher exited ${code} before the emulator started`)),
      );
    });
  }

  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  const answers = (url: string) =>
    fetch(`${url}/__emulator/health`).then(
      () => true,
      () => false,
    );

  /** Waits until the emulator's process is gone and its port no longer answers (the test's timeout bounds it). */
  async function stopped(url: string, pid: number): Promise<void> {
    while (alive(pid)) await new Promise((r) => setTimeout(r, 100));
    expect(await answers(url)).toBe(false);
  }

  const ARGS = (dir: string) => ["--port", "0", "--events-port", "0", "--task-socket", join(dir, "api.sock")];

  test("killing a backgrounded `npx platform-emulator` stops the emulator", async () => {
    const project = userProject();
    const npx = spawn("npx", ["--no-install", "platform-emulator", ...ARGS(project)], {
      cwd: project,
      env: userEnv(),
      stdio: ["ignore", "pipe", "pipe"],
    });
    const { url, pid } = await started(npx);
    expect(pid).not.toBe(npx.pid); // npm exec runs it in a process of its own
    expect(await answers(url)).toBe(true);
    npx.kill("SIGTERM");
    await stopped(url, pid);
  });

  test("a parent killed outright (SIGKILL of the shell that ran it)", async () => {
    const dir = tempDir();
    const command = [node, cli, ...ARGS(dir)].map((a) => `'${a}'`).join(" ");
    // `; true` keeps the shell as the emulator's parent (no exec of the last command).
    const shell = spawn("sh", ["-c", `${command}; true`], {
      env: userEnv(),
      stdio: ["ignore", "pipe", "pipe"],
    });
    const { url, pid } = await started(shell);
    expect(pid).not.toBe(shell.pid);
    shell.kill("SIGKILL");
    await stopped(url, pid);
  });

  test("SIGHUP (the terminal closed) stops it, exit 0", async () => {
    const run = await startCli(["--port", "0", "--task-socket", join(tempDir(), "api.sock"), "--quiet"]);
    run.child.kill("SIGHUP");
    expect(await exited(run.child)).toBe(0);
    expect(run.stderr.join("")).toContain("platform-emulator: SIGHUP, shutting down");
  });
});
