/**
 * What a kind's mock is (each kind's `mock.ts`, which `pulumi-platform/testing` uses): the
 * resource a create at the platform would give, made up as the emulator makes it and mapped to
 * outputs by the kind's own mapping, for unit tests of a program.
 * @module
 */
import { type InputValues, type OutputValues, type ResourceDeclaration, storedInputs } from "./declaration";

/** A mocked resource: its id and its outputs. */
export interface MockedResource<D extends ResourceDeclaration> {
  id: string;
  outputs: OutputValues<D>;
}

/** What the mocks know beyond the inputs: the time, and the platform's defaults for an app. */
export interface MockContext {
  now: Date;
  /** Region of a volume that names none (the app's primary region at the platform). */
  region: string;
  /** The organization whose ownership TXT value a hostname's DNS requirements carry. */
  org: string;
}

/** A kind's made-up create. */
export type Mocker<D extends ResourceDeclaration> = (
  declaration: D,
  inputs: InputValues<D>,
  ctx: MockContext,
) => MockedResource<D>;

/** The inputs a kind stores as given (its `stored` inputs) that the program set. */
export function storedValues<D extends ResourceDeclaration>(
  declaration: D,
  inputs: InputValues<D>,
): Partial<OutputValues<D>> {
  const values = inputs as Record<string, unknown>;
  return Object.fromEntries(
    storedInputs(declaration)
      .filter((k) => values[k] !== undefined)
      .map((k) => [k, values[k]]),
  ) as Partial<OutputValues<D>>;
}
