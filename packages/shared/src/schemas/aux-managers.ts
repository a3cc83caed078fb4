import { z } from 'zod/mini';
import { objectIdSchema } from './common.js';

/**
 * Built-in aux-data managers (docs/aux-managers.md): each turns a source's readings into one aux-data source's
 * records by the vessel's Sealog-style lookup rules, written as YAML.
 */
export const auxManagerStates = ['ok', 'stale', 'error', 'disabled'] as const;
export type AuxManagerState = (typeof auxManagerStates)[number];

export const auxManagerNameMaxLength = 100;
/** The longest manager YAML accepted (a vessel's largest lookup tables are a few kB). */
export const auxManagerYamlMaxLength = 64_000;

export const auxManagerCountersSchema = z.object({
  written: z.number(),
  skipped_stale: z.number(),
  no_data: z.number(),
  excluded: z.number(),
  /** Records left alone because another writer (a vessel's own script) wrote them. */
  external: z.number(),
  errors: z.number(),
  timeouts: z.number(),
});
export type AuxManagerCounters = z.infer<typeof auxManagerCountersSchema>;

/** A manager's health as the leading server sees it. Errors never hold a password, token or URL credential. */
export const auxManagerHealthSchema = z.object({
  id: z.string(),
  name: z.string(),
  data_source: z.string(),
  required: z.boolean(),
  state: z.enum(auxManagerStates),
  last_value_ts: z.nullable(z.string()),
  last_success: z.nullable(z.string()),
  last_error: z.nullable(z.string()),
  last_error_ts: z.nullable(z.string()),
  counters: auxManagerCountersSchema,
  updated: z.nullable(z.string()),
});
export type AuxManagerHealth = z.infer<typeof auxManagerHealthSchema>;

export const auxManagerSchema = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.string(),
  data_source: z.string(),
  enabled: z.boolean(),
  required: z.boolean(),
  max_age_seconds: z.number(),
  timeout_seconds: z.number(),
  /** Whether the source answers for any past time (backfill); live-only sources answer "not backfillable". */
  historical: z.boolean(),
  config_yaml: z.string(),
  from_file: z.boolean(),
  health: auxManagerHealthSchema,
});
export type AuxManager = z.infer<typeof auxManagerSchema>;

const nameSchema = z.string().check(z.trim(), z.minLength(1), z.maxLength(auxManagerNameMaxLength));
const yamlSchema = z.string().check(z.minLength(1), z.maxLength(auxManagerYamlMaxLength));
const seconds = (max: number) => z.number().check(z.positive(), z.maximum(max));

/** POST aux_managers. */
export const createAuxManagerSchema = z.strictObject({
  name: nameSchema,
  kind: z.string().check(z.minLength(1), z.maxLength(50)),
  enabled: z.optional(z.boolean()),
  required: z.optional(z.boolean()),
  max_age_seconds: z.optional(seconds(86_400)),
  timeout_seconds: z.optional(seconds(600)),
  config_yaml: yamlSchema,
});
export type CreateAuxManager = z.infer<typeof createAuxManagerSchema>;

/** PATCH aux_managers/{id}: any of the fields. */
export const updateAuxManagerSchema = z.strictObject({
  name: z.optional(nameSchema),
  enabled: z.optional(z.boolean()),
  required: z.optional(z.boolean()),
  max_age_seconds: z.optional(seconds(86_400)),
  timeout_seconds: z.optional(seconds(600)),
  config_yaml: z.optional(yamlSchema),
});
export type UpdateAuxManager = z.infer<typeof updateAuxManagerSchema>;

/** The most events one backfill request may name. */
export const backfillMaxEventIds = 10_000;

/** POST aux_managers/backfill: events by id, or every event of a lowering or a cruise. */
export const auxBackfillRequestSchema = z.strictObject({
  event_ids: z.optional(z.array(objectIdSchema).check(z.minLength(1), z.maxLength(backfillMaxEventIds))),
  lowering_id: z.optional(objectIdSchema),
  cruise_id: z.optional(objectIdSchema),
  /** Only these managers (ids); default: every enabled one. */
  manager_ids: z.optional(z.array(objectIdSchema).check(z.maxLength(100))),
  /** Default true: nothing is written, the answer says what would be. */
  dry_run: z.optional(z.boolean()),
});
export type AuxBackfillRequest = z.infer<typeof auxBackfillRequestSchema>;

export const auxBackfillOutcomes = [
  'written',
  'unchanged',
  'no_data',
  'stale',
  'not_backfillable',
  'excluded',
  'external',
  'error',
] as const;
export type AuxBackfillOutcome = (typeof auxBackfillOutcomes)[number];

export const auxBackfillResultSchema = z.object({
  dry_run: z.boolean(),
  events: z.number(),
  totals: z.record(z.string(), z.number()),
  /** Per event and manager; the first 5,000 rows. */
  rows: z.array(
    z.object({
      event_id: z.string(),
      ts: z.string(),
      event_value: z.string(),
      manager: z.string(),
      data_source: z.string(),
      outcome: z.enum(auxBackfillOutcomes),
      message: z.optional(z.string()),
    }),
  ),
});
export type AuxBackfillResult = z.infer<typeof auxBackfillResultSchema>;

/** GET aux_managers/status: the footer's view for every reader: required managers that are not ok. */
export const auxManagerStatusSchema = z.object({
  unhealthy: z.array(z.object({ name: z.string(), data_source: z.string(), state: z.enum(auxManagerStates) })),
});
export type AuxManagerStatus = z.infer<typeof auxManagerStatusSchema>;

/** Where the record of an event's data source came from (GET aux_managers/provenance?event_id=). */
export const auxProvenanceSchema = z.object({
  event_id: z.string(),
  data_source: z.string(),
  manager: z.string(),
  source_kind: z.string(),
  provenance: z.enum(['realtime', 'buffered', 'backfilled']),
  value_ts: z.nullable(z.string()),
  written: z.string(),
  /** False when another writer replaced the record since (the manager leaves it alone). */
  current: z.boolean(),
});
export type AuxProvenance = z.infer<typeof auxProvenanceSchema>;
