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
 * What cruises (reference §5.3) and lowerings (§5.4) share: one body and query shape whose fields
 * carry the kind as a prefix (`cruise_tags` / `lowering_tags`), built here once per kind.
 */

const nonEmpty = z.string().min(1);

/** Joi's `min(1)` on a PATCH body: an empty object is refused. */
export function requireSomeKey<T extends z.ZodType<object>>(schema: T): T {
  return schema.refine((v) => Object.keys(v).length > 0, { message: 'must have at least 1 key' });
}

type CreateRecordShape<K extends string, M extends z.ZodType> = {
  id: z.ZodOptional<typeof objectIdSchema>;
  start_ts: typeof isoTimestampSchema;
  stop_ts: typeof isoTimestampSchema;
} & Record<`${K}_id`, typeof nonEmpty> &
  Record<`${K}_location`, z.ZodString> &
  Record<`${K}_additional_meta`, M> &
  Record<`${K}_tags`, z.ZodArray<typeof nonEmpty>> &
  Record<`${K}_hidden`, z.ZodOptional<z.ZodBoolean>> &
  Record<`${K}_access_list`, z.ZodOptional<z.ZodArray<typeof objectIdSchema>>>;

/** POST body of a cruise or lowering. `id` may be chosen by the client (imports keep ids stable). */
export function createRecordSchema<K extends string, M extends z.ZodType>(kind: K, meta: M) {
  // Key order is the order fields are checked in, so the first message matches Sealog's.
  const shape = {
    id: objectIdSchema.optional(),
    [`${kind}_id`]: nonEmpty,
    start_ts: isoTimestampSchema,
    stop_ts: isoTimestampSchema,
    [`${kind}_location`]: z.string(),
    [`${kind}_additional_meta`]: meta,
    [`${kind}_tags`]: z.array(nonEmpty),
    [`${kind}_hidden`]: z.boolean().optional(),
    /** Accepted only when the server runs with access control. */
    [`${kind}_access_list`]: z.array(objectIdSchema).optional(),
  } as CreateRecordShape<K, M>;
  return z.strictObject(shape);
}

/** PATCH body: any subset of the create fields but `id`; the meta object is replaced whole. */
export function updateRecordSchema<S extends z.ZodObject<{ id: z.ZodOptional<typeof objectIdSchema> }>>(create: S) {
  return requireSomeKey(create.omit({ id: true }).partial());
}

/** `format` on the cruise and lowering reads. */
export const recordFormatSchema = z.enum(['json', 'csv']);

/** `sort` on the cruise and lowering lists: newest start first (Sealog's order) or oldest first. */
export const recordSortSchema = z.enum(['newest', 'oldest']);

type ListQueryShape<K extends string> = {
  startTS: z.ZodOptional<typeof looseTimestampSchema>;
  stopTS: z.ZodOptional<typeof looseTimestampSchema>;
  hidden: z.ZodOptional<typeof queryBooleanSchema>;
  format: z.ZodOptional<typeof recordFormatSchema>;
  sort: z.ZodOptional<typeof recordSortSchema>;
  offset: z.ZodOptional<ReturnType<typeof queryIntSchema>>;
  limit: z.ZodOptional<ReturnType<typeof queryIntSchema>>;
} & Record<`${K}_id` | `${K}_location`, z.ZodOptional<z.ZodString>> &
  Record<`${K}_tags`, z.ZodOptional<typeof queryListSchema>>;

/**
 * GET list query of a cruise or lowering; `extra` are further exact-text filters (the cruise's
 * vessel and PI). A single `…_tags` is accepted as well as repeated keys (Sealog needed ≥2).
 */
export function recordListQuerySchema<K extends string, E extends z.ZodRawShape = Record<never, never>>(
  kind: K,
  extra?: E,
) {
  const shape = {
    startTS: looseTimestampSchema.optional(),
    stopTS: looseTimestampSchema.optional(),
    hidden: queryBooleanSchema.optional(),
    [`${kind}_id`]: z.string().optional(),
    ...extra,
    [`${kind}_location`]: z.string().optional(),
    [`${kind}_tags`]: queryListSchema.optional(),
    format: recordFormatSchema.optional(),
    sort: recordSortSchema.optional(),
    offset: queryIntSchema(0).optional(),
    limit: queryIntSchema(1).optional(),
  } as ListQueryShape<K> & E;
  return z.strictObject(shape);
}

/** Reads of one record (by id, bylowering, byevent): only `format`. */
export const recordFormatQuerySchema = z.strictObject({ format: recordFormatSchema.optional() });

/** PATCH /cruises/{id}/permissions and /lowerings/{id}/permissions. */
export const permissionsSchema = requireSomeKey(
  z.strictObject({
    add: z.array(objectIdSchema).optional(),
    remove: z.array(objectIdSchema).optional(),
  }),
);
export type PermissionsChange = z.infer<typeof permissionsSchema>;

/** Messages the cruise and lowering routes answer with (spelt as Sealog clients know them). */
export const recordMessages = {
  startAfterStop: 'Start date must be older than stop date',
  duplicateId: 'Record with the payload id already exists',
} as const;
