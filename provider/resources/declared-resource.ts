/**
 * What every resource class derives from its declaration: the outputs it declares (typed, with
 * the declaration's comments), the values it registers and which of them are secret.
 * @module
 */
import * as pulumi from "@pulumi/pulumi";
import { type OutputsOf, outputNames, type ResourceDeclaration, secretNames } from "../declaration";

type DynamicResourceClass<D extends ResourceDeclaration> = abstract new (
  provider: pulumi.dynamic.ResourceProvider,
  name: string,
  props: pulumi.Inputs,
  opts?: pulumi.CustomResourceOptions,
  module?: string,
  type?: string,
) => pulumi.dynamic.Resource & OutputsOf<D>;

/** `pulumi.dynamic.Resource`, typed with the outputs `D` declares (the engine sets them at run time). */
export function declaredResource<D extends ResourceDeclaration>(): DynamicResourceClass<D> {
  return pulumi.dynamic.Resource as DynamicResourceClass<D>;
}

/**
 * The properties and options a resource registers: every declared output unset (so the engine
 * fills it in), then the program's inputs, secret inputs wrapped as secrets, and the declared
 * secrets added to the options' `additionalSecretOutputs`.
 */
export function registration(
  declaration: ResourceDeclaration,
  args: object,
  opts: pulumi.CustomResourceOptions | undefined,
): { props: pulumi.Inputs; opts: pulumi.CustomResourceOptions | undefined } {
  const props: pulumi.Inputs = Object.fromEntries(outputNames(declaration).map((name) => [name, undefined]));
  Object.assign(props, args);
  const secrets = secretNames(declaration);
  for (const name of secrets) {
    if (name in declaration.inputs && props[name] !== undefined) props[name] = pulumi.secret(props[name]);
  }
  if (secrets.length === 0) return { props, opts };
  return {
    props,
    opts: { ...opts, additionalSecretOutputs: [...secrets, ...(opts?.additionalSecretOutputs ?? [])] },
  };
}
