/**
 * Base of the plugin door's classes: the kind's registration (../../resources/registration: the
 * same props, secrets and additional secret outputs as the dynamic classes) under the plugin's
 * type token `platform:index:<Type>`, served by `pulumi-resource-platform`, and aliased to the
 * kind's dynamic type (under the same parent: the `VolumeSnapshot` component for a snapshot), so
 * moving a stack from one door to the other is a type change the engine carries over (no replace,
 * no platform request).
 * Stack traces are capped while it registers, as the dynamic classes do (see `capStackTraces`):
 * uncapped, Pulumi's traces of its unset outputs were most of what a resource cost the program,
 * and the recorded trace kept this package's frames.
 * @module
 */
import * as pulumi from "@pulumi/pulumi";
import type { ResourceKey, ResourceRow } from "../../kinds/registry";
import { pluginTypeToken, typeToken } from "../../kinds/registry";
import { capStackTraces, registration } from "../../classes/registration";

/** The plugin door's resource of a kind. */
export abstract class PluginResource extends pulumi.CustomResource {
  protected constructor(
    kind: ResourceRow<ResourceKey>,
    name: string,
    args: object,
    opts: pulumi.CustomResourceOptions | undefined,
  ) {
    const r = registration(kind.declaration, args, opts);
    const aliases = [{ type: typeToken(kind) }];
    const traces = capStackTraces();
    try {
      super(pluginTypeToken(kind), name, r.props, {
        ...r.opts,
        aliases: [...aliases, ...(r.opts?.aliases ?? [])],
      });
    } catch (err) {
      throw traces.withConstructionStack(err, new.target);
    } finally {
      traces.restore();
    }
  }
}
