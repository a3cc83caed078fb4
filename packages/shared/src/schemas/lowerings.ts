import { z } from 'zod';
import { createRecordSchema, recordListQuerySchema, updateRecordSchema } from './records.js';

/**
 * Lowerings (dives; reference §5.4). `lowering_additional_meta` is free-form: description,
 * milestones, stats and whatever a vessel adds. Only `lowering_files` is typed on input, because
 * the server acts on it: on PATCH it lists upload ids to move into the lowering's folder.
 */
export const loweringMetaInputSchema = z.looseObject({
  lowering_files: z.array(z.string()).optional(),
});

/** POST /lowerings. */
export const createLoweringSchema = createRecordSchema('lowering', loweringMetaInputSchema);
export type CreateLowering = z.infer<typeof createLoweringSchema>;

/** PATCH /lowerings/{id}. */
export const updateLoweringSchema = updateRecordSchema(createLoweringSchema);
export type UpdateLowering = z.infer<typeof updateLoweringSchema>;

/**
 * GET /lowerings. Sealog refused `hidden` on lowering lists; it works as on cruises (reference
 * §12 item 13).
 */
export const loweringListQuerySchema = recordListQuerySchema('lowering');
export type LoweringListQuery = z.infer<typeof loweringListQuerySchema>;

/** GET /lowerings/bycruise/{id}: the same filters; startTS/stopTS narrow the cruise's bounds. */
export const loweringsByCruiseQuerySchema = loweringListQuerySchema;

/** Milestones: name → ISO time (or null for an unset abort). */
export const loweringMilestonesSchema = z.record(z.string(), z.string().nullable());

/** Stats: max depth and bounding box ordered north, east, south, west (empty when none). */
export const loweringStatsSchema = z.looseObject({
  max_depth: z.union([z.number(), z.string(), z.null()]).optional(),
  bounding_box: z.array(z.union([z.number(), z.string()])).optional(),
});

/** A lowering as every route answers it (ISO times, files listed from the lowering's folder). */
export const loweringSchema = z.object({
  id: z.string(),
  lowering_id: z.string(),
  start_ts: z.string(),
  stop_ts: z.string(),
  lowering_location: z.string(),
  lowering_tags: z.array(z.string()),
  lowering_hidden: z.boolean(),
  /** Present only when the server runs with access control. */
  lowering_access_list: z.array(z.string()).optional(),
  lowering_additional_meta: z.looseObject({
    lowering_name: z.string().optional(),
    lowering_description: z.string().optional(),
    milestones: loweringMilestonesSchema.optional(),
    stats: loweringStatsSchema.optional(),
    lowering_files: z.array(z.string()).optional(),
  }),
});
export type Lowering = z.infer<typeof loweringSchema>;
