/**
 * What a resource kind's registry row is (../kinds/registry lists them, each from its kind's
 * home), and the type tokens that follow from it. Below the kinds, so that what registers a kind's
 * resource (../registration) stands under the kinds that use it.
 * @module
 */
import type { ResourceDeclaration } from "./declaration";
import type { ImportRule, InputWarning, LifetimeRule } from "./kind-rules";

/**
 * The input property under which both doors' classes pass the program's `replaceOnChanges` option
 * to the provider (../registration/registration), which decides it with the kind's answer for a
 * diff (./change-plan's `applyReplaceOnChanges`). Internal (`__`): no check names it.
 */
export const REPLACE_ON_CHANGES = "__replaceOnChanges";

/**
 * The input property under which the classes say that the program gave the resource an engine
 * option that replaces it on its own (`replaceWith`, `replacementTrigger`): then the engine
 * decides the replace without asking the provider's diff, and `check`, which cannot see the plan,
 * says nothing of what only a replace would change (the dynamic door's restore advice).
 */
export const REPLACED_BY_OPTION = "__replacedByOption";

/**
 * One resource kind as the layers below the kinds read it (names, declaration, rules); the kinds' own
 * `KindDefinition` (../kinds/definition) adds its runtime, mock and recovery.
 */
export interface KindModel<K extends string = string> {
  /**
   * The name under which the runtime exports the kind's provider; recorded stubs name it, so it
   * never changes.
   */
  readonly key: K;
  /**
   * The dynamic resource's type: the type token is `pulumi-nodejs:dynamic/platform:<type>`
   * ({@link typeToken}). Recorded in every resource's URN, so it never changes.
   */
  readonly type: string;
  /** Inputs and outputs; its `type` is the class a program constructs. */
  readonly declaration: ResourceDeclaration;
  /** The component a program constructs around the dynamic resource, when there is one. */
  readonly component?: string;
  /** Its day-2 warnings, which both doors print. */
  readonly lifetime: LifetimeRule;
  /** Warnings about inputs the program names anew, which both doors print under the resource. */
  readonly inputWarnings?: readonly InputWarning[];
  /** What an import id means to it, or why it cannot be imported. */
  readonly importing: ImportRule;
}

/** The package name of the dynamic resources' types (`new dynamic.Resource(…, "platform", type)`). */
export const TYPE_PACKAGE = "platform";

/** The type token the engine records for a kind: `pulumi-nodejs:dynamic/platform:<type>`. */
export function typeToken(row: { readonly type: string }): string {
  return `pulumi-nodejs:dynamic/${TYPE_PACKAGE}:${row.type}`;
}

/** The type token of a kind's component (`platform:index:<component>`), when it has one. */
export function componentTypeToken(row: { readonly component: string }): string {
  return `${TYPE_PACKAGE}:index:${row.component}`;
}

/**
 * The type token the provider plugin (`pulumi-resource-platform`) serves a kind under, as one
 * custom resource: `platform:index:<class>`. For `volumeSnapshot` it is also the dynamic door's
 * component token ({@link componentTypeToken}); only a custom resource of it is the plugin's.
 */
export function pluginTypeToken(row: KindModel | KindNames): string {
  return `${TYPE_PACKAGE}:index:${"className" in row ? row.className : row.declaration.type}`;
}

/**
 * What a door registers a kind's resource with: names only, so that a class registers without
 * loading its declaration's rules (zod and the validation; the plugin door's program never needs
 * them). `../kinds/kind-names.json` holds them, written from the registry by `npm run gen-sdks`.
 */
export interface KindNames {
  /** The runtime key ({@link KindModel.key}). */
  readonly key: string;
  /** The dynamic resource's type ({@link KindModel.type}). */
  readonly type: string;
  /** The class a program constructs (the declaration's `type`). */
  readonly className: string;
  /** The component around the resource, when there is one. */
  readonly component?: string;
  /** Every output the class declares (the declared outputs and the stored inputs). */
  readonly outputs: readonly string[];
  /** The inputs and outputs that are secret. */
  readonly secrets: readonly string[];
  /** The secret inputs (wrapped as secrets when the program gives them). */
  readonly secretInputs: readonly string[];
  /**
   * For a kind with an `app` input: the read of the kind's own client family that the token gate
   * (../registration/token-gate) asks about the app with.
   */
  readonly probe?: ProbeFamily;
}

/** A family whose read of an app asks the platform whether it takes a token. */
export type ProbeFamily = "volumes" | "certificates";
