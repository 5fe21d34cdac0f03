/**
 * A `PostgresPasswordRotation` as a create would give it, for `pulumi-platform/testing`: a
 * password as strong as the platform's.
 * @module
 */
import { strongPassword } from "../../../sdk/simulation/ids";
import { DAY_MS } from "../../model/lifetime";
import { type Mocker, storedValues } from "../../model/mocking";
import type { postgresPasswordRotationDeclaration } from "./declaration";

/** The first rotation of a user: no previous credential yet. */
export const postgresPasswordRotationMock: Mocker<typeof postgresPasswordRotationDeclaration> = (
  declaration,
  inputs,
  ctx,
) => {
  const rotatedAt = ctx.now.toISOString();
  return {
    id: `${inputs.clusterId}/${inputs.username}/${rotatedAt}`,
    outputs: {
      ...storedValues(declaration, inputs),
      username: inputs.username,
      password: strongPassword(),
      // The first rotation: there is no previous credential yet, with or without alternateUsername.
      previousUsername: null,
      previousPassword: null,
      rotatedAt,
      nextRotationAt:
        inputs.rotationDays === undefined
          ? null
          : new Date(ctx.now.getTime() + inputs.rotationDays * DAY_MS).toISOString(),
    },
  };
};
