/**
 * What `recover` needs of a stack, whether it runs as the `pulumi-platform recover` command (the
 * `pulumi` CLI on PATH) or from a program through the Automation API (`recoverStack`).
 * @module
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import type { Stack } from "@pulumi/pulumi/automation";
import type { ExportedDeployment } from "./recover-plan";
import type { CompletedUpdate } from "./sweep-plan";

const execFileAsync = promisify(execFile);

/** A stack, as recover reads and changes it. */
export interface StackAccess {
  /** `pulumi stack export` */
  exportDeployment(): Promise<ExportedDeployment>;
  /** `pulumi stack import` */
  importDeployment(deployment: ExportedDeployment): Promise<void>;
  /** `pulumi cancel`: removes the stack's locks. */
  cancel(): Promise<void>;
  /** A stack config value (decrypted), or undefined when it is not set. */
  configValue(key: string): Promise<string | undefined>;
  /** The backend's URL (`file://…` for a DIY backend on disk). */
  backendUrl(): Promise<string>;
  /** The stack's name without organization and project. */
  stackName(): Promise<string>;
  /** The project's name. */
  projectName(): Promise<string>;
  /** The `pulumi up`s of the stack that completed, with their times (`pulumi stack history`). */
  completedUpdates(): Promise<CompletedUpdate[]>;
  /**
   * Every stack of the backend the user can list, of every project (`pulumi stack ls --all`), as
   * Pulumi names them (this project's by stack name, others' as `organization/project/stack`).
   */
  listStacks(): Promise<string[]>;
  /** `pulumi stack export` of another stack, named as {@link listStacks} names it. */
  exportStack(name: string): Promise<ExportedDeployment>;
}

/** The `pulumi` CLI on PATH, in `cwd`, for `stack` (the selected one when undefined). */
export function cliStackAccess(cwd: string, stack: string | undefined): StackAccess {
  const run = async (args: string[], of: string | undefined = stack): Promise<string> => {
    const withStack = of ? [...args, "--stack", of] : args;
    try {
      return (
        await execFileAsync("pulumi", withStack, { cwd, encoding: "utf8", maxBuffer: 512 * 1024 * 1024 })
      ).stdout;
    } catch (err) {
      const stderr = String((err as { stderr?: unknown }).stderr ?? "").trim();
      throw new Error(`\`pulumi ${args.join(" ")}\` failed: ${stderr || (err as Error).message}`);
    }
  };
  return {
    exportDeployment: async () => JSON.parse(await run(["stack", "export"])) as ExportedDeployment,
    importDeployment: async (deployment) => {
      const file = path.join(os.tmpdir(), `pulumi-platform-recovered-${process.pid}-${Date.now()}.json`);
      fs.writeFileSync(file, JSON.stringify(deployment), { mode: 0o600 });
      try {
        await run(["stack", "import", "--file", file]);
      } finally {
        fs.rmSync(file, { force: true });
      }
    },
    cancel: async () => {
      await run(["cancel", "--yes"]);
    },
    configValue: async (key) => {
      try {
        const value = (await run(["config", "get", key])).trim();
        return value === "" ? undefined : value;
      } catch {
        return undefined;
      }
    },
    backendUrl: async () =>
      process.env.PULUMI_BACKEND_URL ?? (JSON.parse(await run(["whoami", "--json"])) as { url: string }).url,
    stackName: async () => stack?.split("/").at(-1) ?? (await run(["stack", "--show-name"])).trim(),
    projectName: async () => {
      const yaml = ["Pulumi.yaml", "Pulumi.yml"].map((f) => path.join(cwd, f)).find((f) => fs.existsSync(f));
      const name = yaml ? /^name:\s*["']?([^"'\s#]+)/m.exec(fs.readFileSync(yaml, "utf8"))?.[1] : undefined;
      if (!name) throw new Error(`no Pulumi.yaml with a project name in ${cwd}`);
      return name;
    },
    completedUpdates: async () => {
      const history = JSON.parse(await run(["stack", "history", "--json"])) as {
        kind?: string;
        startTime?: string;
        endTime?: string;
      }[];
      return completed(history);
    },
    listStacks: async () => {
      const listed = JSON.parse(await run(["stack", "ls", "--all", "--json"], "")) as { name?: unknown }[];
      return listed.flatMap((s) => (typeof s.name === "string" ? [s.name] : []));
    },
    exportStack: async (name) => JSON.parse(await run(["stack", "export"], name)) as ExportedDeployment,
  };
}

/** An Automation API stack. */
export function automationStackAccess(stack: Stack): StackAccess {
  return {
    exportDeployment: async () => (await stack.exportStack()) as unknown as ExportedDeployment,
    importDeployment: async (deployment) => {
      await stack.importStack(deployment as unknown as Parameters<Stack["importStack"]>[0]);
    },
    cancel: () => stack.cancel(),
    configValue: async (key) => {
      try {
        const { value } = await stack.getConfig(key);
        return value === "" ? undefined : value;
      } catch {
        return undefined;
      }
    },
    backendUrl: async () =>
      stack.workspace.envVars.PULUMI_BACKEND_URL ?? (await stack.workspace.whoAmI()).url ?? "",
    stackName: async () => stack.name.split("/").at(-1) as string,
    projectName: async () => (await stack.workspace.projectSettings()).name,
    completedUpdates: async () => completed(await stack.history()),
    listStacks: async () => (await stack.workspace.listStacks({ all: true })).map((s) => s.name),
    exportStack: async (name) => (await stack.workspace.exportStack(name)) as unknown as ExportedDeployment,
  };
}

function completed(
  entries: { kind?: string; startTime?: Date | string; endTime?: Date | string }[],
): CompletedUpdate[] {
  return entries.flatMap((h) => {
    if (h.kind !== "update" || h.startTime === undefined || h.endTime === undefined) return [];
    const startTime = new Date(h.startTime);
    const endTime = new Date(h.endTime);
    return Number.isNaN(startTime.getTime()) || Number.isNaN(endTime.getTime())
      ? []
      : [{ startTime, endTime }];
  });
}
