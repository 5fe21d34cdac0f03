/**
 * What the emulator accepts in request bodies: the sdk's request schemas (the one statement of
 * each body's members, types and ranges), read liberally. Real clients marshal every unset
 * optional member as JSON `null` and an unset region as `""`: both mean "not given" here. Wrong
 * types and out-of-range values are still 400 (422 for `kill_sessions`), naming the field.
 */
import { z } from "zod";
import {
  AcmeCertificateRequestSchema,
  CreateVolumeRequestSchema,
  CustomCertificateRequestSchema,
  ExtendVolumeRequestSchema,
  RotatePasswordRequestSchema,
  UpdateVolumeRequestSchema,
} from "../sdk/schemas";

/** A copy of a JSON object without its `null` members, nested objects included (arrays are kept as sent). */
function withoutNulls(value: unknown): unknown {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) {
    if (member !== null) out[key] = withoutNulls(member);
  }
  return out;
}

/** An object schema whose `null` members (at any depth) count as absent. */
const nullAsAbsent = <T extends z.ZodType>(schema: T) => z.preprocess(withoutNulls, schema);

/** An empty string (an unset region, an empty query value such as `?cursor=`) is a member not given. */
const emptyAsAbsent = (value: unknown) => (value === "" ? undefined : value);

/** Body of POST /v1/apps/{app}/volumes; an empty `region` is no region (the default rules apply). */
export const CreateVolumeBody = nullAsAbsent(
  CreateVolumeRequestSchema.extend({
    region: z.preprocess(emptyAsAbsent, CreateVolumeRequestSchema.shape.region),
  }),
);
export type CreateVolumeBody = z.output<typeof CreateVolumeBody>;

/** Body of PUT /v1/apps/{app}/volumes/{id}: each setting on its own. */
export const UpdateVolumeBody = nullAsAbsent(UpdateVolumeRequestSchema);
export type UpdateVolumeBody = z.output<typeof UpdateVolumeBody>;

/** Body of PUT /v1/apps/{app}/volumes/{id}/extend. */
export const ExtendVolumeBody = nullAsAbsent(ExtendVolumeRequestSchema);
export type ExtendVolumeBody = z.output<typeof ExtendVolumeBody>;

/** Body of POST .../certificates/acme. */
export const AcmeCertificateBody = nullAsAbsent(AcmeCertificateRequestSchema);
export type AcmeCertificateBody = z.output<typeof AcmeCertificateBody>;

/** Body of POST .../certificates/custom. */
export const CustomCertificateBody = nullAsAbsent(CustomCertificateRequestSchema);
export type CustomCertificateBody = z.output<typeof CustomCertificateBody>;

/**
 * Body of POST .../rotate_password. `kill_sessions: null` is "not given" like every optional
 * member; anything but true, false or null is the spec's 422.
 */
export const RotatePasswordBody = nullAsAbsent(RotatePasswordRequestSchema);
export type RotatePasswordBody = z.output<typeof RotatePasswordBody>;

/** Query of GET .../certificates. */
export const CertificateListQuery = z.object({
  filter: z.string().optional(),
  cursor: z.preprocess(emptyAsAbsent, z.string().min(1).optional()),
  limit: z.preprocess(emptyAsAbsent, z.coerce.number().int().min(1).optional()),
});
export type CertificateListQuery = z.output<typeof CertificateListQuery>;
