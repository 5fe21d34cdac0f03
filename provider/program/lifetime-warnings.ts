/**
 * The dynamic door's day-2 warnings: a kind's rule (its row's `lifetime`, e.g. a custom
 * certificate about to expire, a volume grown outside the stack) applied in the program to the
 * resource's recorded outputs, which the engine hands back at preview for a resource that does
 * not change, and attached to the resource, so `pulumi preview` and `pulumi up` print them under
 * its name.
 * @module
 */
import * as pulumi from "@pulumi/pulumi";
import type { LifetimeRule } from "../model/kind-rules";
import { UNKNOWN } from "../model/validation/common";

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
