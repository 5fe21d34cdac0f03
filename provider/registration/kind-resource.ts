/**
 * Base of every resource class of both doors: the kind's registration (./registration: every
 * declared output, the program's inputs, the secrets) under the door's type token, props and
 * aliases (./door), held by the program's token gate in a real `pulumi up` (./token-gate), with
 * stack traces capped while it registers.
 * @module
 */
import * as pulumi from "@pulumi/pulumi";
import type { KindNames } from "../model/kind";
import type { Door } from "./door";
import { capStackTraces, registration } from "./registration";
import { heldForToken } from "./token-gate";

/** A resource of one kind, registered through one door. */
export abstract class KindResource extends pulumi.CustomResource {
  protected constructor(
    door: Door,
    kind: KindNames,
    name: string,
    args: object,
    opts: pulumi.CustomResourceOptions | undefined,
  ) {
    const r = registration(kind, args, opts);
    const props = { ...r.props, ...door.props(kind) };
    const aliases = door.aliases(kind);
    const withAliases =
      aliases.length === 0 ? r.opts : { ...r.opts, aliases: [...aliases, ...(r.opts?.aliases ?? [])] };
    const held = heldForToken(kind, args, withAliases);
    const traces = capStackTraces();
    try {
      super(door.type(kind), name, props, held);
    } catch (err) {
      throw traces.withConstructionStack(err, new.target);
    } finally {
      traces.restore();
    }
    door.registered(this, kind, args as Record<string, unknown>);
  }
}
