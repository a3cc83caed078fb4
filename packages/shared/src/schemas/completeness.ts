import { z } from 'zod/mini';
import { queryBooleanSchema } from './common.js';

/**
 * Data completeness (docs/completeness.md, a Bathylog addition): whether each event carries the
 * aux-data sources the deployment (or its lowering) requires, judged after a grace period.
 *
 * - `complete`: every required source is present and none is stale;
 * - `pending`: a source is missing but the grace period since the event's time has not ended;
 * - `incomplete`: a required source is missing after the grace period, or a source's sample is
 *   stale (its `data_age` is above the maximum age).
 */
export const completenessStates = ['complete', 'pending', 'incomplete'] as const;
export type CompletenessState = (typeof completenessStates)[number];

/**
 * The most aux-data sources a lowering may require (`lowering_additional_meta.required_aux_sources`),
 * and the longest name one may have: each source is a term of every completeness query, so the list
 * is bounded like any other input (docs/completeness.md#configuration).
 */
export const maxRequiredAuxSources = 100;
export const maxAuxSourceNameLength = 200;

/** One event's completeness, as the lane and the websocket carry it. */
export const eventCompletenessSchema = z.object({
  id: z.string(),
  ts: z.string(),
  state: z.enum(completenessStates),
  missing: z.array(z.string()),
  stale: z.array(z.string()),
  /** The aux data arrived after the event had been judged incomplete. */
  late: z.optional(z.boolean()),
});
export type EventCompleteness = z.infer<typeof eventCompletenessSchema>;

/** GET /lowerings/{id}/completeness. */
export const completenessQuerySchema = z.strictObject({
  /** List every event's completeness (`events`). */
  events: z.optional(queryBooleanSchema),
});
export type CompletenessQuery = z.infer<typeof completenessQuerySchema>;

export const completenessSummarySchema = z.object({
  required_sources: z.array(z.string()),
  grace_seconds: z.number(),
  max_age_seconds: z.number(),
  events_total: z.number(),
  events_complete: z.number(),
  events_incomplete: z.number(),
  events_pending: z.number(),
  events_late: z.number(),
  missing_by_source: z.record(z.string(), z.number()),
  stale_by_source: z.record(z.string(), z.number()),
  incomplete_event_ids: z.optional(z.array(z.string())),
  events: z.optional(z.array(eventCompletenessSchema)),
});
export type CompletenessSummary = z.infer<typeof completenessSummarySchema>;

/** GET /completeness/newest: the newest event the caller may see, judged (the footer's line). */
export const newestCompletenessSchema = z.object({
  /** The deployment's required sources; empty: completeness is off. */
  required_sources: z.array(z.string()),
  newest: z.nullable(
    z.object({
      event_id: z.string(),
      lowering_id: z.nullable(z.string()),
      ts: z.string(),
      state: z.enum(completenessStates),
      missing: z.array(z.string()),
      stale: z.array(z.string()),
      late: z.optional(z.boolean()),
    }),
  ),
});
export type NewestCompleteness = z.infer<typeof newestCompletenessSchema>;

/** The `completeness` query parameter of the event lists (Bathylog extension): `incomplete` only. */
export const completenessFilterValues = ['incomplete'] as const;
