import { recordOriginSchema } from './sync.js';
import { z } from 'zod/mini';
import { createRecordSchema, recordListQuerySchema, updateRecordSchema } from './records.js';

/**
 * Cruises (docs/wire.md#cruises). Bodies are what Sealog clients and scripts send; the wire shape is what
 * every cruise route answers.
 */

const nonEmpty = z.string().check(z.minLength(1));

/**
 * `cruise_additional_meta`: free-form, but the keys Sealog typed must have their types. The
 * vessel, PI and ports may not be empty (Joi `string()`), the name may. `cruise_files`, when sent
 * on PATCH, lists upload ids from the files `process` route; it is never stored.
 */
export const cruiseMetaSchema = z.looseObject({
  cruise_name: z.optional(z.string()),
  cruise_vessel: z.optional(nonEmpty),
  cruise_pi: z.optional(nonEmpty),
  cruise_departure_location: z.optional(nonEmpty),
  cruise_arrival_location: z.optional(nonEmpty),
  cruise_description: z.optional(z.string()),
  cruise_participants: z.optional(z.array(z.string())),
  cruise_files: z.optional(z.array(z.string())),
});
export type CruiseMeta = z.infer<typeof cruiseMetaSchema>;

/** Meta keys a cruise_manager may not change (docs/roles-and-access.md#cruise-managers). */
export const cruiseManagerLockedMetaKeys = [
  'cruise_vessel',
  'cruise_pi',
  'cruise_departure_location',
  'cruise_arrival_location',
] as const;

/** POST /cruises. */
export const createCruiseSchema = createRecordSchema('cruise', cruiseMetaSchema);
export type CreateCruise = z.infer<typeof createCruiseSchema>;

/** PATCH /cruises/{id}. */
export const updateCruiseSchema = updateRecordSchema(createCruiseSchema);
export type UpdateCruise = z.infer<typeof updateCruiseSchema>;

/** GET /cruises. */
export const cruiseListQuerySchema = recordListQuerySchema('cruise', {
  cruise_vessel: z.optional(z.string()),
  cruise_pi: z.optional(z.string()),
});
export type CruiseListQuery = z.infer<typeof cruiseListQuerySchema>;

/** A cruise as every route answers it (ISO times, files listed from the cruise's folder). */
export const cruiseSchema = z.object({
  id: z.string(),
  /** Set on a shore server for a record copied from a ship (docs/screens.md#ship-to-shore). */
  origin: z.optional(recordOriginSchema),
  cruise_id: z.string(),
  start_ts: z.string(),
  stop_ts: z.string(),
  cruise_location: z.string(),
  cruise_tags: z.array(z.string()),
  cruise_hidden: z.boolean(),
  /** Present only when the server runs with access control. */
  cruise_access_list: z.optional(z.array(z.string())),
  /** Present only when the public archive is on (docs/public-archive.md#on-the-wire): public (true/false). */
  cruise_public: z.optional(z.nullable(z.boolean())),
  /** When its embargo ends (ISO), or null. */
  cruise_embargo_until: z.optional(z.nullable(z.string())),
  cruise_additional_meta: z.extend(cruiseMetaSchema, { cruise_files: z.optional(z.array(z.string())) }),
});
export type Cruise = z.infer<typeof cruiseSchema>;
