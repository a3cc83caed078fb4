import { videoLinkSchema } from './recordings.js';
import { recordOriginSchema } from './sync.js';
import { z } from 'zod/mini';
import type { TrackColumns } from '../nav.js';
import { eventAuxDataSchema } from './event-aux-data.js';
import { completenessStates } from './completeness.js';
import {
  isoTimestampSchema,
  looseTimestampSchema,
  objectIdSchema,
  queryBooleanSchema,
  queryIntSchema,
  queryListSchema,
} from './common.js';

/**
 * Events (docs/wire.md#events, docs/wire.md#event-filters). Timestamps are ISO strings on the wire;
 * schemas that read them turn them into epoch milliseconds.
 */

/** Option names are stored lower-cased with whitespace runs as `_` (scripts look for `milestone`, `status`). */
export function normalizeOptionName(name: string): string {
  return name.toLowerCase().replace(/\s+/g, '_');
}

export const eventOptionSchema = z.strictObject({
  event_option_name: z.string().check(z.minLength(1)),
  event_option_value: z.string(),
});
export type EventOption = z.infer<typeof eventOptionSchema>;

/** An event as every route answers it. `cruise_id`/`lowering_id` only with `add_record_ids`. */
export const eventSchema = z.object({
  id: z.string(),
  /** Set on a shore server for a record copied from a ship (docs/ship-to-shore.md#read-only-on-shore). */
  origin: z.optional(recordOriginSchema),
  event_author: z.string(),
  ts: z.string(),
  event_value: z.string(),
  event_options: z.array(z.object({ event_option_name: z.string(), event_option_value: z.string() })),
  event_free_text: z.string(),
  cruise_id: z.optional(z.string()),
  lowering_id: z.optional(z.string()),
});
export type LogEvent = z.infer<typeof eventSchema>;

const eventOptionsField = z.array(eventOptionSchema);

/** POST /events. `publish` is not stored: false keeps the event off the live channels, true puts it on them whatever its time (docs/wire.md#live-or-imported). */
export const createEventSchema = z.strictObject({
  id: z.optional(objectIdSchema),
  event_author: z.optional(z.string().check(z.minLength(1), z.maxLength(100))),
  ts: z.optional(isoTimestampSchema),
  event_value: z.string().check(z.minLength(1), z.maxLength(100)),
  event_options: z.optional(eventOptionsField),
  event_free_text: z.optional(z.string()),
  publish: z.optional(z.boolean()),
});
export type CreateEvent = z.infer<typeof createEventSchema>;
export type CreateEventInput = z.input<typeof createEventSchema>;

/** PATCH /events/{id}: at least one field; `event_options` replaces the whole list. */
export const updateEventSchema = z
  .strictObject({
    event_author: z.optional(z.string().check(z.minLength(1), z.maxLength(100))),
    ts: z.optional(isoTimestampSchema),
    event_value: z.optional(z.string().check(z.minLength(1), z.maxLength(100))),
    event_options: z.optional(eventOptionsField),
    event_free_text: z.optional(z.string()),
  })
  .check(
    z.refine((v) => Object.keys(v).length > 0, { message: 'must have at least 1 key', path: ['eventUpdateResponse'] }),
  );
export type UpdateEvent = z.infer<typeof updateEventSchema>;
export type UpdateEventInput = z.input<typeof updateEventSchema>;

export const createEventResponseSchema = z.object({
  acknowledged: z.literal(true),
  insertedId: z.string(),
  insertedEvent: eventSchema,
});
export type CreateEventResponse = z.infer<typeof createEventResponseSchema>;

export const eventCountSchema = z.object({ events: z.number().check(z.int(), z.minimum(0)) });
export type EventCount = z.infer<typeof eventCountSchema>;

export const bulkDeleteEventsResponseSchema = z.object({
  deletedCount: z.number().check(z.int(), z.minimum(0)),
  /** On a shore: matching events copied from a ship, left out (docs/ship-to-shore.md#bulk-deletes-on-shore). */
  keptFromShips: z.optional(z.number().check(z.int(), z.minimum(0))),
});

/**
 * How long after creating an event its author may still delete it without being an admin or an
 * event manager: long enough for the console's "cancel the options modal deletes the bare event"
 * flow, short enough that loggers cannot prune the record later.
 */
export const ownEventDeleteWindowMs = 60 * 60 * 1000;

/**
 * Filter terms as the Sealog client sends them (docs/wire.md#query-strings): repeated keys and
 * comma lists both give several terms; each is trimmed and blanks are dropped. Terms are OR-ed.
 */
export function splitFilterTerms(values: readonly string[] | undefined): string[] {
  if (!values) return [];
  return values
    .flatMap((v) => v.split(','))
    .map((t) => t.trim())
    .filter((t) => t !== '');
}

/**
 * Splits terms into those to include and the `!term` ones to exclude (the `!` removed). A lone
 * `!` excludes nothing.
 */
export function splitNegatedTerms(terms: readonly string[]): { include: string[]; exclude: string[] } {
  const include: string[] = [];
  const exclude: string[] = [];
  for (const term of terms) {
    if (term.startsWith('!')) {
      const rest = term.slice(1).trim();
      if (rest !== '') exclude.push(rest);
    } else include.push(term);
  }
  return { include, exclude };
}

export const eventFormats = ['json', 'csv'] as const;
export type EventFormat = (typeof eventFormats)[number];

const filterFields = {
  author: z.optional(queryListSchema),
  value: z.optional(queryListSchema),
  freetext: z.optional(queryListSchema),
  datasource: z.optional(queryListSchema),
};

/** GET /events (and bycruise, bylowering, count, bulk DELETE): the filter of docs/wire.md#event-filters. */
export const eventListQuerySchema = z.strictObject({
  ...filterFields,
  fulltext: z.optional(queryListSchema),
  startTS: z.optional(isoTimestampSchema),
  stopTS: z.optional(isoTimestampSchema),
  /** `newest` sorts newest first; anything else oldest first (Sealog). */
  sort: z.optional(z.string()),
  offset: z.optional(queryIntSchema(0)),
  limit: z.optional(queryIntSchema(1)),
  format: z.optional(z.enum(eventFormats)),
  add_record_ids: z.optional(queryBooleanSchema),
  /** Bathylog extension: `incomplete` keeps the events missing required aux data (docs/completeness.md#event-lists). */
  completeness: z.optional(z.enum(['incomplete'])),
});
export type EventListQuery = z.infer<typeof eventListQuerySchema>;

/** GET /events/{id}. */
export const eventGetQuerySchema = z.strictObject({
  format: z.optional(z.enum(eventFormats)),
  add_record_ids: z.optional(queryBooleanSchema),
  /** The WHOI client's `aux_data=true`: the event with its aux data, as an export shows it. */
  aux_data: z.optional(queryBooleanSchema),
});
export type EventGetQuery = z.infer<typeof eventGetQuerySchema>;

/** GET /event_exports (and bycruise, bylowering): no `sort` (always oldest first); loose dates. */
export const eventExportQuerySchema = z.strictObject({
  ...filterFields,
  fulltext: z.optional(queryListSchema),
  startTS: z.optional(looseTimestampSchema),
  stopTS: z.optional(looseTimestampSchema),
  offset: z.optional(queryIntSchema(0)),
  limit: z.optional(queryIntSchema(1)),
  format: z.optional(z.enum(eventFormats)),
  add_record_ids: z.optional(queryBooleanSchema),
  /**
   * The WHOI client's "Events w/ renav": an event with post-processed navigation exports it
   * instead of its realtime navigation (docs/sealog-clients.md#exports-with-renav).
   */
  use_renav: z.optional(queryBooleanSchema),
  /**
   * Bathylog extension (docs/completeness.md#exports): `true` adds a completeness column (CSV) /
   * field (JSON) per event; `incomplete` also keeps only the incomplete events.
   */
  completeness: z.optional(z.enum(['true', 'false', 'incomplete'])),
});
export type EventExportQuery = z.infer<typeof eventExportQuerySchema>;

/** GIS exports of a lowering's or cruise's track and events (Bathylog addition, not in Sealog). */
export const gisFormats = ['geojson', 'kml'] as const;
export type GisFormat = (typeof gisFormats)[number];

/** GET /gis_exports/bylowering/{id} and /bycruise/{id}: the event filter of the exports, and the format. */
export const gisExportQuerySchema = z.extend(
  z.omit(eventExportQuerySchema, {
    offset: true,
    limit: true,
    format: true,
    add_record_ids: true,
    use_renav: true,
    completeness: true,
  }),
  { format: z.optional(z.enum(gisFormats)) },
);
export type GisExportQuery = z.infer<typeof gisExportQuerySchema>;

/** The API path (under /sealog-server/api/v1) of a GIS export; `format` and the filter go in the query. */
export function gisExportPath(kind: 'cruise' | 'lowering', id: string): string {
  return `gis_exports/by${kind}/${id}`;
}

/** The file name a GIS export is saved under. */
export function gisExportFileName(prefix: string, format: GisFormat): string {
  return `${prefix}_sealog_gisExport.${format}`;
}

/** GET /tracks/bylowering/{id} (Bathylog addition): the lowering's dive track as columns (nav.ts `TrackColumns`). */

/**
 * Checks a track response column by column without a per-element schema walk (a 20,000-point
 * dive is 100,000 values: zod takes a fifth of a second for them in the browser). Throws on drift.
 */
export function readTrackColumns(raw: unknown): TrackColumns {
  const bad = () => new Error('Invalid track response');
  if (typeof raw !== 'object' || raw === null) throw bad();
  const r = raw as Record<string, unknown>;
  const n = Array.isArray(r.eventIds) ? r.eventIds.length : -1;
  const column = (v: unknown, ok: (x: unknown) => boolean) => Array.isArray(v) && v.length === n && v.every(ok);
  const str = (x: unknown) => typeof x === 'string';
  const num = (x: unknown) => typeof x === 'number';
  const numOrNull = (x: unknown) => x === null || typeof x === 'number';
  if (
    !(r.source === null || typeof r.source === 'string') ||
    !column(r.eventIds, str) ||
    !column(r.ts, num) ||
    !column(r.lat, numOrNull) ||
    !column(r.lon, numOrNull) ||
    !column(r.depth, numOrNull) ||
    !Array.isArray(r.problems) ||
    !r.problems.every(str)
  ) {
    throw bad();
  }
  return r as unknown as TrackColumns;
}

/** The API path (under /sealog-server/api/v1) of a lowering's track. */
export function trackPath(loweringId: string): string {
  return `tracks/bylowering/${loweringId}`;
}

/** An event as the exports answer it: with the aux data of every source (no aux ids). */
export const exportedEventSchema = z.extend(eventSchema, {
  aux_data: z.array(z.object({ data_source: z.string(), data_array: eventAuxDataSchema.shape.data_array })),
  /** With `completeness=true` (docs/completeness.md#exports). */
  completeness: z.optional(
    z.object({ state: z.enum(completenessStates), missing: z.array(z.string()), stale: z.array(z.string()) }),
  ),
  /** Each camera's recording and offset at the event, where the window holds recordings (docs/video.md#exports). */
  video: z.optional(z.array(videoLinkSchema)),
});
export type ExportedEvent = z.infer<typeof exportedEventSchema>;

/** An event by id, with its aux records when asked (`?aux_data=true`, the WHOI client's call). */
export const eventWithAuxDataSchema = z.extend(eventSchema, {
  aux_data: z.optional(exportedEventSchema.shape.aux_data),
});

/** GET /tracks/bylowering/{id} as the OpenAPI document describes it (`readTrackColumns` checks it cheaply). */
export const trackColumnsSchema = z.object({
  source: z.nullable(z.string()),
  eventIds: z.array(z.string()),
  ts: z.array(z.number()),
  lat: z.array(z.nullable(z.number())),
  lon: z.array(z.nullable(z.number())),
  depth: z.array(z.nullable(z.number())),
  problems: z.array(z.string()),
});
