/**
 * `pulumi-platform/ops`: operations on stacks, for Automation API programs (the `pulumi-platform`
 * command's library side). Outside the resource model: nothing here is loaded by a program that
 * declares resources, nor by the provider host.
 * @module
 */
export { type RecoverStackOptions, type RecoverStackResult, recoverStack } from "./recover-stack";
