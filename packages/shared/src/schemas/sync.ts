import { z } from 'zod/mini';

/**
 * Ship-to-shore replication (docs/ship-to-shore.md): the change feed a ship serves to the shore
 * servers that follow it, and the ships a shore server follows.
 */

export const syncRecordTypes = [
  'cruise',
  'lowering',
  'event',
  'event_aux_data',
  'event_template',
  'file',
  /** A video recording with its copies' metadata (docs/video.md#ship-to-shore). */
  'recording',
] as const;
export type SyncRecordType = (typeof syncRecordTypes)[number];

/** A feed cursor: opaque to the shore, and never longer than a ship takes back in `after`. */
export const syncCursorSchema = z.string().check(z.maxLength(200));

/** GET sync/changes: after a cursor (absent: from the start), pages of at most `max_bytes` (before compression). */
export const syncChangesQuerySchema = z.strictObject({
  after: z.optional(syncCursorSchema),
  max_bytes: z.optional(z.coerce.number().check(z.int(), z.minimum(1024), z.maximum(16 * 1024 * 1024))),
  /** Seconds to wait for a change when there is none yet (the server caps it). */
  wait: z.optional(z.coerce.number().check(z.int(), z.minimum(0), z.maximum(60))),
});

export const syncChangeSchema = z.object({
  seq: z.string(),
  op: z.enum(['upsert', 'delete']),
  record_type: z.enum(syncRecordTypes),
  record_id: z.string(),
  record: z.nullable(z.record(z.string(), z.unknown())),
});
export type SyncChange = z.infer<typeof syncChangeSchema>;

export const syncChangesPageSchema = z.object({
  changes: z.array(syncChangeSchema),
  next: z.string(),
  more: z.boolean(),
  head: z.string(),
  head_bytes_behind: z.optional(z.number()),
  /** How many records the follower is behind after this page (0 when `more` is false). */
  head_records_behind: z.optional(z.number()),
});
export type SyncChangesPage = z.infer<typeof syncChangesPageSchema>;

/**
 * A page as the shore reads it: the envelope checked (a page without one is not applied and its
 * cursor never stored), each change left to be checked on its own, so one malformed change is
 * refused without holding up the rest (docs/ship-to-shore.md#refused-changes).
 */
export const syncPageEnvelopeSchema = z.object({
  changes: z.array(z.unknown()),
  next: syncCursorSchema,
  more: z.boolean(),
  head: syncCursorSchema,
  head_bytes_behind: z.optional(z.number().check(z.int(), z.minimum(0))),
  head_records_behind: z.optional(z.number().check(z.int(), z.minimum(0))),
});
export type SyncPageEnvelope = z.infer<typeof syncPageEnvelopeSchema>;

/** A file record of the feed: where it lives under the data folder, its checksum and size. */
export interface SyncFileRecord {
  path: string;
  sha256: string;
  size: number;
  /** An image under the image folder: the shore fetches its thumbnail first. */
  image: boolean;
}

export const syncCommentMaxLength = 10_000;

/** POST sync/comments: a comment written on shore, for the ship's event. */
export const syncCommentSchema = z.strictObject({
  event_id: z.string().check(z.regex(/^[0-9a-fA-F]{24}$/, 'must be a 24-character hex id')),
  /** The comment; empty text removes the event's comment. */
  text: z.string().check(z.maxLength(syncCommentMaxLength)),
  author: z.string().check(z.minLength(1), z.maxLength(200)),
});
export type SyncComment = z.infer<typeof syncCommentSchema>;

export const syncFollowerSchema = z.object({
  key_id: z.string(),
  key_name: z.string(),
  last_contact: z.nullable(z.string()),
  cursor: z.nullable(z.string()),
  behind_records: z.number(),
  behind_bytes: z.number(),
});

/** GET sync/status on the ship. */
export const syncStatusSchema = z.object({
  role: z.literal('ship'),
  head: z.string(),
  followers: z.array(syncFollowerSchema),
});
export type SyncStatus = z.infer<typeof syncStatusSchema>;

export const shipStates = ['following', 'catching_up', 'offline', 'refused', 'paused'] as const;
export type ShipState = (typeof shipStates)[number];

/** A change a ship sent that the shore refused (docs/ship-to-shore.md#refused-changes). */
export const shipRefusalSchema = z.object({
  at: z.string(),
  record_type: z.string(),
  record_id: z.string(),
  reason: z.string(),
});
export type ShipRefusal = z.infer<typeof shipRefusalSchema>;

/** A followed ship as the shore's admins see it (never its key). */
export const shipSchema = z.object({
  id: z.string(),
  name: z.string(),
  url: z.string(),
  enabled: z.boolean(),
  bandwidth_kbps: z.nullable(z.number()),
  state: z.enum(shipStates),
  last_contact: z.nullable(z.string()),
  last_error: z.nullable(z.string()),
  cursor: z.nullable(z.string()),
  behind_records: z.number(),
  behind_bytes: z.number(),
  queued_files: z.number(),
  queued_bytes: z.number(),
  records: z.object({
    cruises: z.number(),
    lowerings: z.number(),
    events: z.number(),
    aux_data: z.number(),
    files: z.number(),
  }),
  /** Changes refused in all, and the latest (newest first). */
  refused_changes: z.number(),
  refusals: z.array(shipRefusalSchema),
});
export type Ship = z.infer<typeof shipSchema>;

const shipUrlSchema = z.string().check(
  z.maxLength(2000),
  z.refine((v) => {
    try {
      const u = new URL(v);
      return (u.protocol === 'http:' || u.protocol === 'https:') && u.username === '' && u.password === '';
    } catch {
      return false;
    }
  }, 'must be an http(s) address'),
);
const shipNameSchema = z.string().check(z.trim(), z.minLength(1), z.maxLength(100));
const shipKeySchema = z.string().check(z.trim(), z.minLength(1), z.maxLength(500));
const bandwidthSchema = z.nullable(z.number().check(z.int(), z.minimum(1), z.maximum(10_000_000)));

export const createShipSchema = z.strictObject({
  name: shipNameSchema,
  url: shipUrlSchema,
  key: shipKeySchema,
  bandwidth_kbps: z.optional(bandwidthSchema),
});
export type CreateShip = z.input<typeof createShipSchema>;

export const updateShipSchema = z.strictObject({
  name: z.optional(shipNameSchema),
  url: z.optional(shipUrlSchema),
  key: z.optional(shipKeySchema),
  bandwidth_kbps: z.optional(bandwidthSchema),
  enabled: z.optional(z.boolean()),
});
export type UpdateShip = z.input<typeof updateShipSchema>;

/** Where a record copied from a ship came from (a field stock clients ignore). */
export const recordOriginSchema = z.object({ ship_id: z.string(), ship_name: z.string() });
export type RecordOrigin = z.infer<typeof recordOriginSchema>;

/** The refusal of a change to a record copied from a ship. */
export function shipRecordReadOnlyMessage(shipName: string): string {
  return `This record comes from the ship ${shipName} and is read-only here; change it on the ship.`;
}
