/**
 * What sets a door apart when it registers a kind's resource: the dynamic door
 * (`pulumi-platform`, ../dynamic/door) and the plugin door (`pulumi-platform/plugin`,
 * ../plugin/door) register the same props under their own type token, each aliased to the
 * other's, and the dynamic door also prints the kind's day-2 warnings from the program (the
 * plugin prints them from its `diff`).
 * @module
 */
import type * as pulumi from "@pulumi/pulumi";
import type { KindNames } from "../model/kind";

/** How one door registers a kind's resource. */
export interface Door {
  /** The type token the kind's resource is registered under. */
  type(kind: KindNames): string;
  /** Properties the door adds to the registration's (the dynamic door: the provider text). */
  props(kind: KindNames): pulumi.Inputs;
  /** Aliases the door adds before the program's own. */
  aliases(kind: KindNames): pulumi.Alias[];
  /** What the door does once the resource is registered, given the program's `args`. */
  registered(resource: pulumi.CustomResource, kind: KindNames, args: Record<string, unknown>): void;
}
