import { z } from 'zod/mini';
import { toIso } from '../time.js';
import { formatZodError } from '../validation.js';
import { createCruiseSchema } from './cruises.js';
import { createEventAuxDataSchema } from './event-aux-data.js';
import { createEventTemplateSchema } from './event-templates.js';
import { createEventSchema } from './events.js';
import { createLoweringSchema } from './lowerings.js';
import type { SyncRecordType } from './sync.js';

/**
 * A record a followed ship sends is the row the ship stores (times as epoch milliseconds, flags as
 * 0/1, lists and objects as JSON text). Before a shore stores one it is checked twice: the row's
 * column types, then the same record as the API would take it in a request (the create schemas of
 * each resource), so a copied record holds nothing the API itself would refuse
 * (docs/ship-to-shore.md#refused-changes).
 */

const epochMs = z.number().check(z.int(), z.minimum(-8.64e15), z.maximum(8.64e15));
const flag = z.union([z.literal(0), z.literal(1)]);
const objectIdText = z.string().check(z.regex(/^[0-9a-fA-F]{24}$/, 'must be a 24-character hex id'));
const text = z.string();

const recordRow = <K extends string>(kind: K) =>
  z.object({
    id: objectIdText,
    [`${kind}_id`]: text,
    start_ts: epochMs,
    stop_ts: epochMs,
    [`${kind}_location`]: text,
    [`${kind}_tags`]: text,
    [`${kind}_hidden`]: flag,
    [`${kind}_access_list`]: text,
    [`${kind}_additional_meta`]: text,
    // A cruise is public or not; a lowering may also inherit (null).
    [`${kind}_public`]: z.optional(kind === 'lowering' ? z.nullable(flag) : flag),
    [`${kind}_embargo_until`]: z.optional(z.nullable(epochMs)),
  });

/** The column types of each copied table's row. */
const rowSchemas = {
  event: z.object({
    id: objectIdText,
    ts: epochMs,
    event_author: text,
    event_value: text,
    event_options: text,
    event_free_text: text,
    created_by: z.optional(z.nullable(z.string().check(z.maxLength(100)))),
  }),
  event_aux_data: z.object({ id: objectIdText, event_id: objectIdText, data_source: text, data_array: text }),
  cruise: recordRow('cruise'),
  lowering: recordRow('lowering'),
  event_template: z.object({
    id: objectIdText,
    event_name: text,
    event_value: text,
    event_free_text_required: flag,
    system_template: flag,
    template_categories: text,
    template_style: z.optional(z.nullable(text)),
    event_button_color: z.optional(z.nullable(text)),
    disabled: z.optional(flag),
    admin_only: z.optional(flag),
    event_options: text,
  }),
} as const;

/** Records checked by the API's create schemas (a recording is checked where it is stored: its API takes no such body). */
export type CopiedRecordType = Exclude<SyncRecordType, 'file' | 'recording'>;

class NotJson extends Error {}

function json(value: unknown, column: string): unknown {
  try {
    return JSON.parse(String(value));
  } catch {
    throw new NotJson(`"${column}" is not JSON text`);
  }
}

const iso = (ms: unknown) => (typeof ms === 'number' ? toIso(ms) : ms);
const bool = (v: unknown) => v === 1;
/** Null and absent both mean "not set": the body leaves the field out. */
const present = <T>(key: string, v: T | null | undefined) => (v === null || v === undefined ? {} : { [key]: v });

function asBody(type: CopiedRecordType, r: Record<string, unknown>): unknown {
  switch (type) {
    case 'event':
      return {
        id: r.id,
        ts: iso(r.ts),
        event_author: r.event_author,
        event_value: r.event_value,
        event_options: json(r.event_options, 'event_options'),
        event_free_text: r.event_free_text,
      };
    case 'event_aux_data':
      return {
        id: r.id,
        event_id: r.event_id,
        data_source: r.data_source,
        data_array: json(r.data_array, 'data_array'),
      };
    case 'cruise':
    case 'lowering': {
      const k = type;
      const pub = r[`${k}_public`];
      const until = r[`${k}_embargo_until`];
      return {
        id: r.id,
        [`${k}_id`]: r[`${k}_id`],
        start_ts: iso(r.start_ts),
        stop_ts: iso(r.stop_ts),
        [`${k}_location`]: r[`${k}_location`],
        [`${k}_additional_meta`]: json(r[`${k}_additional_meta`], `${k}_additional_meta`),
        [`${k}_tags`]: json(r[`${k}_tags`], `${k}_tags`),
        [`${k}_hidden`]: bool(r[`${k}_hidden`]),
        [`${k}_access_list`]: json(r[`${k}_access_list`], `${k}_access_list`),
        ...(pub === undefined ? {} : { [`${k}_public`]: pub === null ? null : bool(pub) }),
        ...(until === undefined ? {} : { [`${k}_embargo_until`]: until === null ? null : iso(until) }),
      };
    }
    case 'event_template':
      return {
        id: r.id,
        event_name: r.event_name,
        event_value: r.event_value,
        event_free_text_required: bool(r.event_free_text_required),
        system_template: bool(r.system_template),
        template_categories: json(r.template_categories, 'template_categories'),
        ...present(
          'template_style',
          typeof r.template_style === 'string' ? json(r.template_style, 'template_style') : null,
        ),
        ...present('event_button_color', r.event_button_color),
        ...(r.disabled === undefined ? {} : { disabled: bool(r.disabled) }),
        ...(r.admin_only === undefined ? {} : { admin_only: bool(r.admin_only) }),
        event_options: json(r.event_options, 'event_options'),
      };
  }
}

const bodySchemas = {
  event: createEventSchema,
  event_aux_data: createEventAuxDataSchema,
  cruise: createCruiseSchema,
  lowering: createLoweringSchema,
  event_template: createEventTemplateSchema,
} as const;

/**
 * Why a ship's record of this type may not be stored, or null when it may: the row's column
 * types, then the record as the API's create schema takes it.
 */
export function copiedRecordProblem(type: CopiedRecordType, record: unknown): string | null {
  const row = rowSchemas[type].safeParse(record);
  if (!row.success) return formatZodError(row.error);
  let body: unknown;
  try {
    body = asBody(type, row.data as Record<string, unknown>);
  } catch (err) {
    if (err instanceof NotJson) return err.message;
    throw err;
  }
  const parsed = bodySchemas[type].safeParse(body);
  return parsed.success ? null : formatZodError(parsed.error);
}
