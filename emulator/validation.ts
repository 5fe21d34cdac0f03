import type { FastifySchemaCompiler } from "fastify";
import type { z } from "zod";

/** One line naming each failing field, e.g. `snapshot_retention: Too big: expected number to be <=60`. */
export function formatZodError(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const path = issue.path.map(String).join(".");
      return path ? `${path}: ${issue.message}` : issue.message;
    })
    .join("; ");
}

/**
 * Fastify validator compiler for zod schemas attached to routes (`schema: { body: Schema }`).
 * An absent body reaches validators as null; it is validated as `{}` so that optional bodies
 * work and required fields are named in the error.
 */
export const zodValidatorCompiler: FastifySchemaCompiler<z.ZodType> = ({ schema, httpPart }) => {
  return (data: unknown) => {
    const input = data === null && httpPart === "body" ? {} : data;
    const result = schema.safeParse(input);
    if (result.success) return { value: result.data };
    const err = new Error(formatZodError(result.error)) as Error & { statusCode: number };
    err.statusCode = 400;
    return { error: err };
  };
};
