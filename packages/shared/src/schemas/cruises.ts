import { z } from 'zod';
import {
  isoTimestampSchema,
  looseTimestampSchema,
  objectIdSchema,
  queryBooleanSchema,
  queryIntSchema,
  queryListSchema,
} from './common.js';

/**
 * Cruises (reference §5.3). Bodies are what Sealog clients and scripts send; the wire shape is what
 * every cruise route answers.
 */

const nonEmpty = z.string().min(1);

/**
 * `cruise_additional_meta`: free-form, but the keys Sealog typed must have their types. The
 * vessel, PI and ports may not be empty (Joi `string()`), the name may. `cruise_files`, when sent
 * on PATCH, lists upload ids from the files `process` route; it is never stored.
 */
export const cruiseMetaSchema = z.looseObject({
  cruise_name: z.string().optional(),
  cruise_vessel: nonEmpty.optional(),
  cruise_pi: nonEmpty.optional(),
  cruise_departure_location: nonEmpty.optional(),
  cruise_arrival_location: nonEmpty.optional(),
  cruise_description: z.string().optional(),
  cruise_participants: z.array(z.string()).optional(),
  cruise_files: z.array(z.string()).optional(),
});
export type CruiseMeta = z.infer<typeof cruiseMetaSchema>;

/** Meta keys a cruise_manager may not change (seed 001 §6). */
export const cruiseManagerLockedMetaKeys = [
  'cruise_vessel',
  'cruise_pi',
  'cruise_departure_location',
  'cruise_arrival_location',
] as const;

/** POST /cruises. `id` may be chosen by the client (imports keep ids stable). */
export const createCruiseSchema = z.strictObject({
  id: objectIdSchema.optional(),
  cruise_id: nonEmpty,
  start_ts: isoTimestampSchema,
  stop_ts: isoTimestampSchema,
  cruise_location: z.string(),
  cruise_additional_meta: cruiseMetaSchema,
  cruise_tags: z.array(nonEmpty),
  cruise_hidden: z.boolean().optional(),
  /** Accepted only when the server runs with access control. */
  cruise_access_list: z.array(objectIdSchema).optional(),
});
export type CreateCruise = z.infer<typeof createCruiseSchema>;

/** PATCH /cruises/{id}: any subset of the create fields but `id`; `cruise_additional_meta` is replaced whole. */
export const updateCruiseSchema = createCruiseSchema
  .omit({ id: true })
  .partial()
  .refine((v) => Object.keys(v).length > 0, { message: 'must have at least 1 key' });
export type UpdateCruise = z.infer<typeof updateCruiseSchema>;

/** PATCH /cruises/{id}/permissions and /lowerings/{id}/permissions. */
export const permissionsSchema = z
  .strictObject({
    add: z.array(objectIdSchema).optional(),
    remove: z.array(objectIdSchema).optional(),
  })
  .refine((v) => Object.keys(v).length > 0, { message: 'must have at least 1 key' });
export type PermissionsChange = z.infer<typeof permissionsSchema>;

/** `format` on the cruise and lowering reads. */
export const recordFormatSchema = z.enum(['json', 'csv']);

/** `sort` on the cruise and lowering lists: newest start first (Sealog's order) or oldest first. */
export const recordSortSchema = z.enum(['newest', 'oldest']);

/** GET /cruises. A single `cruise_tags` is accepted as well as repeated keys (Sealog needed ≥2). */
export const cruiseListQuerySchema = z.strictObject({
  startTS: looseTimestampSchema.optional(),
  stopTS: looseTimestampSchema.optional(),
  hidden: queryBooleanSchema.optional(),
  cruise_id: z.string().optional(),
  cruise_vessel: z.string().optional(),
  cruise_pi: z.string().optional(),
  cruise_location: z.string().optional(),
  cruise_tags: queryListSchema.optional(),
  format: recordFormatSchema.optional(),
  sort: recordSortSchema.optional(),
  offset: queryIntSchema(0).optional(),
  limit: queryIntSchema(1).optional(),
});
export type CruiseListQuery = z.infer<typeof cruiseListQuerySchema>;

/** Reads of one record (by id, bylowering, byevent): only `format`. */
export const recordFormatQuerySchema = z.strictObject({ format: recordFormatSchema.optional() });

/** A cruise as every route answers it (ISO times, files listed from the cruise's folder). */
export const cruiseSchema = z.object({
  id: z.string(),
  cruise_id: z.string(),
  start_ts: z.string(),
  stop_ts: z.string(),
  cruise_location: z.string(),
  cruise_tags: z.array(z.string()),
  cruise_hidden: z.boolean(),
  /** Present only when the server runs with access control. */
  cruise_access_list: z.array(z.string()).optional(),
  cruise_additional_meta: cruiseMetaSchema.extend({ cruise_files: z.array(z.string()).optional() }),
});
export type Cruise = z.infer<typeof cruiseSchema>;

/** Messages the cruise and lowering routes answer with (spelt as Sealog clients know them). */
export const recordMessages = {
  startAfterStop: 'Start date must be older than stop date',
  duplicateId: 'Record with the payload id already exists',
} as const;
