/**
 * The dynamic door's day-2 warnings: a kind's rule (its row's `lifetime`, e.g. a custom
 * certificate about to expire, a volume grown outside the stack) applied in the program to the
 * resource's recorded outputs, which the engine hands back at preview for a resource that does
 * not change, and attached to the resource, so `pulumi preview` and `pulumi up` print them under
 * its name.
 * @module
 */
import * as pulumi from "@pulumi/pulumi";
import type { InputWarning, LifetimeRule } from "../model/kind-rules";
import { UNKNOWN } from "../model/validation/common";
import { outputKnown } from "../pulumi-sdk/program";

/**
 * Warns under `resource` as its kind's `rule` says: each check once the outputs it reads and the
 * `args` whose values it reads are known (an input it only asks the presence of is not waited on).
 */
export function warnFromProgram(
  resource: pulumi.CustomResource,
  rule: LifetimeRule,
  args: Record<string, unknown>,
): void {
  const outputs = resource as unknown as Record<string, pulumi.Input<unknown>>;
  for (const check of rule) {
    const olds = Object.fromEntries(check.reads.map((name) => [name, outputs[name]]));
    const news = Object.fromEntries(
      check.given.filter((name) => args[name] !== undefined).map((name) => [name, args[name]]),
    );
    const present = Object.fromEntries(
      (check.present ?? []).filter((name) => args[name] !== undefined).map((name) => [name, UNKNOWN]),
    );
    pulumi.all([resource.id, olds, news]).apply(([id, recorded, given]) => {
      const warning = check.warning(id, recorded, { ...present, ...(given as object) }, new Date());
      if (warning) void pulumi.log.warn(warning, resource);
    });
  }
}

/**
 * Warns under `resource` about an input the program names anew, as its kind's `inputWarnings`
 * say (the plugin prints the same from its `check`). Anew: the resource is created or replaced
 * (at preview its id is unknown), or its recorded value (the output of the input's name) differs.
 * An in-place update keeps the id known and leaves the output unknown at preview: a changed value
 * of a replace input would replace, so the value is the recorded one and nothing is said. Each
 * run's `up` records the value, so the next preview is quiet.
 */
export function warnNewInputs(
  resource: pulumi.CustomResource,
  warnings: readonly InputWarning[],
  args: Record<string, unknown>,
): void {
  const outputs = resource as unknown as Record<string, pulumi.Output<unknown>>;
  for (const { input, warning } of warnings) {
    if (args[input] === undefined) continue;
    pulumi.output(args[input]).apply(async (value) => {
      const text = typeof value === "string" ? warning(value) : undefined;
      if (text === undefined) return;
      const recorded = outputs[input];
      if (await outputKnown(resource.id, resource)) {
        if (recorded === undefined || !(await outputKnown(recorded, resource))) return;
        if ((await knownValue(recorded)) === value) return;
      }
      void pulumi.log.warn(text, resource);
    });
  }
}

/** The value of a known output. */
function knownValue<T>(output: pulumi.Output<T>): Promise<T> {
  return new Promise((resolve) => output.apply(resolve));
}
