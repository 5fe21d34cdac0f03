/**
 * The dynamic door's day-2 warnings: a kind's rule (its row's `lifetime`, e.g. a custom
 * certificate about to expire, a volume grown outside the stack) applied in the program to the
 * resource's recorded outputs, which the engine hands back at preview for a resource that does
 * not change, and attached to the resource, so `pulumi preview` and `pulumi up` print them under
 * its name.
 * @module
 */
import * as pulumi from "@pulumi/pulumi";
import { type LifetimeRule, lifetimeWarnings } from "../model/kind-rules";

/** Warns under `resource` as its kind's `rule` says, once its outputs and the `args` it reads are known. */
export function warnFromProgram(
  resource: pulumi.CustomResource,
  rule: LifetimeRule,
  args: Record<string, unknown>,
): void {
  if (rule.reads.length === 0) return;
  const outputs = resource as unknown as Record<string, pulumi.Input<unknown>>;
  const olds = Object.fromEntries(rule.reads.map((name) => [name, outputs[name]]));
  const news = Object.fromEntries(
    rule.given.filter((name) => args[name] !== undefined).map((name) => [name, args[name]]),
  );
  pulumi.all([resource.id, olds, news]).apply(([id, recorded, given]) => {
    const now = new Date();
    for (const warning of lifetimeWarnings(rule, id, recorded, given as Record<string, unknown>, now))
      void pulumi.log.warn(warning, resource);
  });
}
