import { recordOriginSchema } from './sync.js';
import { z } from 'zod/mini';
import { createRecordSchema, recordListQuerySchema, updateRecordSchema } from './records.js';
import { maxAuxSourceNameLength, maxRequiredAuxSources } from './completeness.js';

/**
 * Lowerings (dives; docs/wire.md#lowerings). `lowering_additional_meta` is free-form: description,
 * milestones, stats and whatever a vessel adds. Only what the server acts on is typed on input:
 * `lowering_files` (on PATCH, upload ids to move into the lowering's folder) and
 * `required_aux_sources` (the dive's own completeness sources, bounded).
 */
export const loweringMetaInputSchema = z.looseObject({
  lowering_files: z.optional(z.array(z.string())),
  required_aux_sources: z.optional(
    z.array(z.string().check(z.maxLength(maxAuxSourceNameLength))).check(z.maxLength(maxRequiredAuxSources)),
  ),
});

/** POST /lowerings. */
export const createLoweringSchema = createRecordSchema('lowering', loweringMetaInputSchema);
export type CreateLowering = z.infer<typeof createLoweringSchema>;

/** PATCH /lowerings/{id}. */
export const updateLoweringSchema = updateRecordSchema(createLoweringSchema);
export type UpdateLowering = z.infer<typeof updateLoweringSchema>;

/**
 * GET /lowerings. Sealog refused `hidden` on lowering lists; it works as on cruises
 * (docs/wire.md#lowerings).
 */
export const loweringListQuerySchema = recordListQuerySchema('lowering');
export type LoweringListQuery = z.infer<typeof loweringListQuerySchema>;

/** GET /lowerings/bycruise/{id}: the same filters; startTS/stopTS narrow the cruise's bounds. */
export const loweringsByCruiseQuerySchema = loweringListQuerySchema;

/** Milestones: name → ISO time (or null for an unset abort). */
export const loweringMilestonesSchema = z.record(z.string(), z.nullable(z.string()));

/** Stats: max depth and bounding box ordered north, east, south, west (empty when none). */
export const loweringStatsSchema = z.looseObject({
  max_depth: z.optional(z.union([z.number(), z.string(), z.null()])),
  bounding_box: z.optional(z.array(z.union([z.number(), z.string()]))),
});

/** A lowering as every route answers it (ISO times, files listed from the lowering's folder). */
export const loweringSchema = z.object({
  id: z.string(),
  /** Set on a shore server for a record copied from a ship (docs/ship-to-shore.md#read-only-on-shore). */
  origin: z.optional(recordOriginSchema),
  lowering_id: z.string(),
  start_ts: z.string(),
  stop_ts: z.string(),
  lowering_location: z.string(),
  lowering_tags: z.array(z.string()),
  lowering_hidden: z.boolean(),
  /** Present only when the server runs with access control. */
  lowering_access_list: z.optional(z.array(z.string())),
  /** Present only when the public archive is on (docs/public-archive.md#on-the-wire): public (true/false; null: inherits its cruise's). */
  lowering_public: z.optional(z.nullable(z.boolean())),
  /** When its embargo ends (ISO), or null. */
  lowering_embargo_until: z.optional(z.nullable(z.string())),
  lowering_additional_meta: z.looseObject({
    lowering_name: z.optional(z.string()),
    lowering_description: z.optional(z.string()),
    milestones: z.optional(loweringMilestonesSchema),
    stats: z.optional(loweringStatsSchema),
    lowering_files: z.optional(z.array(z.string())),
  }),
});
export type Lowering = z.infer<typeof loweringSchema>;
