import { z } from 'zod/mini';
import {
  isoTimestampSchema,
  looseTimestampSchema,
  objectIdSchema,
  queryBooleanSchema,
  queryIntSchema,
  queryListSchema,
} from './common.js';

/**
 * What cruises (docs/wire.md#cruises) and lowerings (docs/wire.md#lowerings) share: one body and
 * query shape whose fields carry the kind as a prefix (`cruise_tags` / `lowering_tags`), built here
 * once per kind.
 */

const nonEmpty = z.string().check(z.minLength(1));

/** Joi's `min(1)` on a PATCH body: an empty object is refused. */
export function requireSomeKey<T extends z.ZodMiniType<object>>(schema: T): T {
  return schema.check(z.refine((v: object) => Object.keys(v).length > 0, { message: 'must have at least 1 key' }));
}

type CreateRecordShape<K extends string, M extends z.ZodMiniType> = {
  id: z.ZodMiniOptional<typeof objectIdSchema>;
  start_ts: typeof isoTimestampSchema;
  stop_ts: typeof isoTimestampSchema;
} & Record<`${K}_id`, typeof nonEmpty> &
  Record<`${K}_location`, z.ZodMiniString> &
  Record<`${K}_additional_meta`, M> &
  Record<`${K}_tags`, z.ZodMiniArray<typeof nonEmpty>> &
  Record<`${K}_hidden`, z.ZodMiniOptional<z.ZodMiniBoolean>> &
  Record<`${K}_access_list`, z.ZodMiniOptional<z.ZodMiniArray<typeof objectIdSchema>>> &
  Record<`${K}_public`, z.ZodMiniOptional<z.ZodMiniNullable<z.ZodMiniBoolean>>> &
  Record<`${K}_embargo_until`, z.ZodMiniOptional<z.ZodMiniNullable<typeof isoTimestampSchema>>>;

/** POST body of a cruise or lowering. `id` may be chosen by the client (imports keep ids stable). */
export function createRecordSchema<K extends string, M extends z.ZodMiniType>(kind: K, meta: M) {
  // Key order is the order fields are checked in, so the first message matches Sealog's.
  const shape = {
    id: z.optional(objectIdSchema),
    [`${kind}_id`]: nonEmpty,
    start_ts: isoTimestampSchema,
    stop_ts: isoTimestampSchema,
    [`${kind}_location`]: z.string(),
    [`${kind}_additional_meta`]: meta,
    [`${kind}_tags`]: z.array(nonEmpty),
    [`${kind}_hidden`]: z.optional(z.boolean()),
    /** Accepted only when the server runs with access control. */
    [`${kind}_access_list`]: z.optional(z.array(objectIdSchema)),
    /**
     * Accepted only when the public archive is on (docs/public-archive.md): public or not (a
     * lowering's null: inherit its cruise's setting), and when an embargo ends (null: none).
     */
    [`${kind}_public`]: z.optional(z.nullable(z.boolean())),
    [`${kind}_embargo_until`]: z.optional(z.nullable(isoTimestampSchema)),
  } as CreateRecordShape<K, M>;
  return z.strictObject(shape);
}

/** PATCH body: any subset of the create fields but `id`; the meta object is replaced whole. */
export function updateRecordSchema<S extends z.core.$ZodShape & { id: z.ZodMiniOptional<typeof objectIdSchema> }>(
  create: z.ZodMiniObject<S, z.core.$strict>,
) {
  // zod/mini's omit cannot check its mask against a generic shape: the cast states what it returns.
  const update = z.partial(z.omit(create as z.ZodMiniObject<{ id: S['id'] }, z.core.$strict>, { id: true }));
  return requireSomeKey(
    update as unknown as z.ZodMiniObject<{ [k in Exclude<keyof S, 'id'>]: z.ZodMiniOptional<S[k]> }, z.core.$strict>,
  );
}

/** `format` on the cruise and lowering reads. */
export const recordFormatSchema = z.enum(['json', 'csv']);

/** `sort` on the cruise and lowering lists: newest start first (Sealog's order) or oldest first. */
export const recordSortSchema = z.enum(['newest', 'oldest']);

type ListQueryShape<K extends string> = {
  startTS: z.ZodMiniOptional<typeof looseTimestampSchema>;
  stopTS: z.ZodMiniOptional<typeof looseTimestampSchema>;
  hidden: z.ZodMiniOptional<typeof queryBooleanSchema>;
  format: z.ZodMiniOptional<typeof recordFormatSchema>;
  sort: z.ZodMiniOptional<typeof recordSortSchema>;
  offset: z.ZodMiniOptional<ReturnType<typeof queryIntSchema>>;
  limit: z.ZodMiniOptional<ReturnType<typeof queryIntSchema>>;
} & Record<`${K}_id` | `${K}_location`, z.ZodMiniOptional<z.ZodMiniString>> &
  Record<`${K}_tags`, z.ZodMiniOptional<typeof queryListSchema>>;

/**
 * GET list query of a cruise or lowering; `extra` are further exact-text filters (the cruise's
 * vessel and PI). A single `…_tags` is accepted as well as repeated keys (Sealog needed ≥2).
 */
export function recordListQuerySchema<K extends string, E extends z.core.$ZodShape = Record<never, never>>(
  kind: K,
  extra?: E,
) {
  const shape = {
    startTS: z.optional(looseTimestampSchema),
    stopTS: z.optional(looseTimestampSchema),
    hidden: z.optional(queryBooleanSchema),
    [`${kind}_id`]: z.optional(z.string()),
    ...extra,
    [`${kind}_location`]: z.optional(z.string()),
    [`${kind}_tags`]: z.optional(queryListSchema),
    format: z.optional(recordFormatSchema),
    sort: z.optional(recordSortSchema),
    offset: z.optional(queryIntSchema(0)),
    limit: z.optional(queryIntSchema(1)),
  } as ListQueryShape<K> & E;
  return z.strictObject(shape);
}

/** Reads of one record (by id, bylowering, byevent): only `format`. */
export const recordFormatQuerySchema = z.strictObject({ format: z.optional(recordFormatSchema) });

const humanIdSchema = z.string().check(z.minLength(1), z.maxLength(100));
/** `GET lowerings/byloweringid/{lowering_id}` (WHOI client): a dive by its human id such as `S0492`. */
export const loweringIdParamsSchema = z.strictObject({ lowering_id: humanIdSchema });
/**
 * `GET event_aux_data/bylowering/{id}`: a lowering by its database id or, as the WHOI client's map
 * asks, by its human id (`S0492`).
 */
export const loweringRefParamsSchema = z.strictObject({ id: humanIdSchema });
/** `GET cruises/bycruiseid/{cruise_id}` (WHOI client): a cruise by its human id. */
export const cruiseIdParamsSchema = z.strictObject({ cruise_id: humanIdSchema });

/** PATCH /cruises/{id}/permissions and /lowerings/{id}/permissions. */
export const permissionsSchema = requireSomeKey(
  z.strictObject({
    add: z.optional(z.array(objectIdSchema)),
    remove: z.optional(z.array(objectIdSchema)),
  }),
);
export type PermissionsChange = z.infer<typeof permissionsSchema>;

/** Messages the cruise and lowering routes answer with (spelt as Sealog clients know them). */
export const recordMessages = {
  startAfterStop: 'Start date must be older than stop date',
  duplicateId: 'Record with the payload id already exists',
} as const;

/** POST /files/cruises/{id} and /files/lowerings/{id} (multipart): the names the files were stored under. */
export const storedFilesSchema = z.object({ files: z.array(z.string()) });
