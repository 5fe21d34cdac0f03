/**
 * What a resource kind is, in one object: its home's `kind.ts` exports it (`<key>Kind`) and the
 * registry (./registry) lists it, one line per kind. Every table about the kinds is derived from
 * the registry: the runtime's providers (./runtimes), the mocks (../testing/outputs), `recover`'s
 * rules (`ops/recover-plan`), the platform client families the runtimes use
 * (../runtime/credentials' `ProviderClient`), the stubs, the type tokens, the classes' names, the
 * plugin's schema, policy's typed helpers.
 *
 * Loaded by the program (the dynamic door's classes read the registry): what a definition holds
 * eagerly is names, the declaration and plain rules; its runtime and its mock (which load the sdk,
 * undici or the simulation) are reached through functions that `require` them when called, in
 * the provider host and in `pulumi-platform/testing`.
 * @module
 */
import type { PlatformClient } from "../../sdk/client";
import type { ResourceDeclaration } from "../model/declaration";
import type { KindModel } from "../model/kind";
import type { Mocker } from "../model/mocking";
import type { KindRecovery } from "../model/recovery";
import type { RuntimeProvider } from "../runtime/define";

/** A family of the platform client (`PlatformClient`'s `volumes`, `certificates`, …). */
export type ClientFamily = Exclude<keyof PlatformClient, "close">;

/** One resource kind: its registry row and everything else each table about the kinds reads. */
export interface KindDefinition<
  K extends string = string,
  D extends ResourceDeclaration = ResourceDeclaration,
> extends KindModel<K> {
  readonly declaration: D;
  /**
   * The kind's provider (check, diff, create, read, update, delete at the platform): its home's
   * `runtime.ts`, required when called (the provider host, `recover`), never by the program.
   */
  readonly runtime: () => RuntimeProvider;
  /** The platform client's families its runtime calls (`platformClient().volumes`, …). */
  readonly clients: readonly ClientFamily[];
  /**
   * What `pulumi-platform/testing` answers for a create: its home's `mock.ts`, required when
   * called (it loads the simulation of the platform).
   */
  readonly mock: () => Mocker<D>;
  /** What `recover` does about an interrupted create of the kind (../model/recovery). */
  readonly recovery: KindRecovery;
  /**
   * How the package's prose names the kind (`volume`, `certificate`, `Postgres password`,
   * `snapshot`): the README, the package's description, the plugin's schema and the package
   * root's docs name each kind so (test/unit/provider/kind-everywhere.test.ts).
   */
  readonly noun: string;
}

/** The declaration of a definition. */
export type DeclarationOf<T> = T extends { readonly declaration: infer D extends ResourceDeclaration }
  ? D
  : never;
