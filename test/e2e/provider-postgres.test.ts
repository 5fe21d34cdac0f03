import { describe, expect, it } from "vitest";
import {
  expectNoPlaintext,
  plainExport,
  platformConfig,
  RESPONSE_MODES,
  useE2eEmulator,
} from "../support/e2e";
import { programPath, withStack } from "../support/engine";
import { step } from "../support/step";

// The lifecycle runs against the emulator's full answers and against its sparse ones (what the
// real platform may leave out or null).
describe.each(RESPONSE_MODES)(
  "PostgresPasswordRotation through the real engine (%s responses)",
  (responses) => {
    const e = useE2eEmulator({ responses });

    it("walks preview, up, no-change preview/refresh, trigger rotation, a refused user and destroy", async () => {
      const programDir = programPath("provider-postgres");
      await withStack({ programDir, config: platformConfig(e.emu) }, async (ctx) => {
        const { stack } = ctx;
        const firstPassword = await step("preview and up", async () => {
          expect((await stack.preview()).changeSummary.create).toBe(2);
          const up = await stack.up();
          expect(up.outputs.username?.value).toBe("app_user");
          expect(up.outputs.password?.secret).toBe(true);
          const password = String(up.outputs.password?.value);
          expect(password.length).toBeGreaterThan(8);
          return password;
        });

        await step("no-change preview and refresh after a rotation elsewhere", async () => {
          await stack.preview({ expectNoChanges: true });
          // No read endpoint: even a rotation made elsewhere leaves the state as it is.
          await e.api("POST", "/v1/postgres/demo-pg/users/app_user/rotate_password", {});
          await stack.refresh({ expectNoChanges: true });
        });

        await step("a new trigger value rotates again through a replace", async () => {
          await stack.setConfig("rotation", { value: "2" });
          const rotated = await stack.up();
          expect(rotated.summary.resourceChanges).toMatchObject({ replace: 1 });
          const secondPassword = String(rotated.outputs.password?.value);
          expect(secondPassword).not.toBe(firstPassword);
          expectNoPlaintext(plainExport(ctx, stack.name, programDir), e.emu.token, [
            firstPassword,
            secondPassword,
          ]);
        });

        await step("refused users", async () => {
          // A reserved user is stopped at preview with the platform's own rule, before any call.
          await stack.setConfig("username", { value: "postgres" });
          await expect(stack.preview()).rejects.toThrow(/user "postgres" is reserved/);
          // A user only the platform can judge: its 404 surfaces at up, and the state is unchanged.
          await stack.setConfig("username", { value: "ghost_user" });
          await expect(stack.up()).rejects.toThrow(/failed with 404[\s\S]*ghost_user/);
          await stack.removeConfig("username");
          await stack.preview({ expectNoChanges: true });
        });

        await step("destroy", async () => {
          const destroy = await stack.destroy();
          expect(destroy.summary.resourceChanges).toMatchObject({ delete: 2 });
        });
      });
    });
  },
);

describe("PostgresPasswordRotation without credentials", () => {
  it("fails at preview without credentials, saying how to set them", async () => {
    await withStack({ programDir: programPath("provider-postgres") }, async ({ stack }) => {
      const err = await stack.preview().catch((e: Error) => e);
      expect(err).toBeInstanceOf(Error);
      const text = String((err as Error).message);
      expect(text).toContain("pulumi config set --secret platform:apiToken");
      expect(text).toContain("PLATFORM_API_TOKEN");
      expect(text).toContain("PLATFORM_API_URL");
    });
  });
});
