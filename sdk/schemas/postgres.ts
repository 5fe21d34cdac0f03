import { z } from "zod";

export const PostgresCredentialsSchema = z.object({
  username: z.string(),
  password: z.string(),
});
export type PostgresCredentials = z.infer<typeof PostgresCredentialsSchema>;

export const RotatePasswordResponseSchema = z.object({ data: PostgresCredentialsSchema });
export type RotatePasswordResponse = z.infer<typeof RotatePasswordResponseSchema>;

/** Body of POST .../rotate_password; `kill_sessions` must be a real boolean (422 otherwise). */
export const RotatePasswordRequestSchema = z.object({ kill_sessions: z.boolean().optional() });
export type RotatePasswordRequest = z.infer<typeof RotatePasswordRequestSchema>;
