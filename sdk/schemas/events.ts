import { z } from "zod";

const Hex16 = z.string().regex(/^[0-9a-fA-F]{16}$/, "16-digit hex");

/*
 * Real nodes write checksums with the top bit set (the LTX checksum flag: the first of the 16 hex
 * digits is 8 or more); they are opaque strings here, compared case-insensitively, never numbers.
 */

/**
 * First event of every stream. `hostname` is the current primary's host and port; a primary (and
 * a replica without a primary) sends it empty or leaves it out.
 */
export const InitEventSchema = z.object({
  type: z.literal("init"),
  data: z.object({ isPrimary: z.boolean(), hostname: z.string().optional() }),
});
export type InitEvent = z.infer<typeof InitEventSchema>;

export const TxEventSchema = z.object({
  type: z.literal("tx"),
  db: z.string(),
  data: z.object({
    txID: Hex16,
    postApplyChecksum: z.string().regex(/^[0-9a-fA-F]+$/, "hex"),
    pageSize: z.number().int().positive(),
    commit: z.number().int().nonnegative(),
    timestamp: z.string(),
  }),
});
export type TxEvent = z.infer<typeof TxEventSchema>;

/**
 * The node's primary status or its primary changed. `hostname` is the current primary; the node
 * that became primary (and a replica that lost its primary) sends it empty or leaves it out.
 */
export const PrimaryChangeEventSchema = z.object({
  type: z.literal("primaryChange"),
  data: z.object({ isPrimary: z.boolean(), hostname: z.string().optional() }),
});
export type PrimaryChangeEvent = z.infer<typeof PrimaryChangeEventSchema>;

/** Any event the reader does not know: kept, never an error (spec 6: tolerate additions). */
export const UnknownEventSchema = z.object({
  type: z.string(),
  data: z.unknown().optional(),
});
export type UnknownEvent = z.infer<typeof UnknownEventSchema> & { known?: false };

export const KnownEventSchema = z.discriminatedUnion("type", [
  InitEventSchema,
  TxEventSchema,
  PrimaryChangeEventSchema,
]);
export type KnownEvent = z.infer<typeof KnownEventSchema>;
export type PlatformEvent = KnownEvent | UnknownEvent;
