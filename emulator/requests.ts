/**
 * What the emulator accepts in request bodies: its own schemas, apart from the sdk's (which stay
 * strict about what the sdk sends). Real clients marshal every unset optional member as JSON
 * `null` and an unset region as `""`: both mean "not given" here. Wrong types and out-of-range
 * values are still 400 (422 for `kill_sessions`), naming the field.
 */
import { z } from "zod";
import { SNAPSHOT_RETENTION_MAX, SNAPSHOT_RETENTION_MIN } from "../sdk/schemas/volume-constants";

/** Limits of `snapshot_retention` (spec 8). */
const Retention = z.number().int().min(SNAPSHOT_RETENTION_MIN).max(SNAPSHOT_RETENTION_MAX);

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

const ComputeRequest = z.object({
  cpu_kind: z.enum(["shared", "performance"]).optional(),
  cpus: z.number().int().positive().optional(),
  gpu_kind: z.string().optional(),
  gpus: z.number().int().nonnegative().optional(),
  host_dedication_id: z.string().optional(),
  kernel_args: z.array(z.string()).optional(),
  memory_mb: z.number().int().positive().optional(),
});

/** Body of POST /v1/apps/{app}/volumes; an empty `region` is no region (the default rules apply). */
export const CreateVolumeBody = nullAsAbsent(
  z.object({
    name: z.string().min(1),
    region: z.preprocess(emptyAsAbsent, z.string().optional()),
    size_gb: z.number().int().positive().optional(),
    encrypted: z.boolean().optional(),
    fstype: z.string().min(1).optional(),
    auto_backup_enabled: z.boolean().optional(),
    snapshot_retention: Retention.optional(),
    snapshot_id: z.string().min(1).optional(),
    source_volume_id: z.string().min(1).optional(),
    machines_only: z.boolean().optional(),
    require_unique_zone: z.boolean().optional(),
    compute: ComputeRequest.optional(),
  }),
);
export type CreateVolumeBody = z.output<typeof CreateVolumeBody>;

/** Body of PUT /v1/apps/{app}/volumes/{id}: each setting on its own. */
export const UpdateVolumeBody = nullAsAbsent(
  z.object({
    auto_backup_enabled: z.boolean().optional(),
    snapshot_retention: Retention.optional(),
  }),
);
export type UpdateVolumeBody = z.output<typeof UpdateVolumeBody>;

/** Body of PUT /v1/apps/{app}/volumes/{id}/extend. */
export const ExtendVolumeBody = nullAsAbsent(z.object({ size_gb: z.number().int().positive() }));
export type ExtendVolumeBody = z.output<typeof ExtendVolumeBody>;

/** Body of POST .../certificates/acme. */
export const AcmeCertificateBody = nullAsAbsent(z.object({ hostname: z.string().min(1) }));
export type AcmeCertificateBody = z.output<typeof AcmeCertificateBody>;

/** Body of POST .../certificates/custom. */
export const CustomCertificateBody = nullAsAbsent(
  z.object({
    hostname: z.string().min(1),
    fullchain: z.string().min(1),
    private_key: z.string().min(1),
  }),
);
export type CustomCertificateBody = z.output<typeof CustomCertificateBody>;

/**
 * Body of POST .../rotate_password. `kill_sessions: null` is "not given" like every optional
 * member; anything but true, false or null is the spec's 422.
 */
export const RotatePasswordBody = nullAsAbsent(z.object({ kill_sessions: z.boolean().optional() }));
export type RotatePasswordBody = z.output<typeof RotatePasswordBody>;

/** Query of GET .../certificates. */
export const CertificateListQuery = z.object({
  filter: z.string().optional(),
  cursor: z.preprocess(emptyAsAbsent, z.string().min(1).optional()),
  limit: z.preprocess(emptyAsAbsent, z.coerce.number().int().min(1).optional()),
});
export type CertificateListQuery = z.output<typeof CertificateListQuery>;
