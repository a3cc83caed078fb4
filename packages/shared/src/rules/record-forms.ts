import { z } from 'zod/mini';
import { formatIsoDate } from '../duration.js';
import { parseUtcInput, toIso, type TimeEdge } from '../time.js';
import type { Cruise, createCruiseSchema } from '../schemas/cruises.js';
import type { createLoweringSchema, Lowering } from '../schemas/lowerings.js';

/** Bodies as sent (ISO text times; the schemas' outputs are epoch numbers). */
type CreateLoweringBody = z.input<typeof createLoweringSchema>;
type UpdateLoweringBody = Partial<Omit<CreateLoweringBody, 'id'>>;
type CreateCruiseBody = z.input<typeof createCruiseSchema>;
type UpdateCruiseBody = Partial<Omit<CreateCruiseBody, 'id'>>;

/**
 * The cruise and lowering add/update forms: their messages word for word as the Sealog client
 * shows them, defaults, the record ↔ form conversions and the list searches. The
 * server keeps its own checks (time order, roles); these are what the user sees while typing.
 */
export const recordFormMessages = {
  required: 'Required',
  idTooLong: 'Must be 15 characters or less',
  nonStandardId: 'Non-standard ID',
  invalidTimestamp: 'Invalid timestamp',
  /** Spelt as the Sealog client has it ("data"). */
  stopBeforeStart: 'Stop date must be later than start data',
} as const;

/** The Sealog client's ID length limit. */
export const recordIdMaxLength = 15;
/** Files per upload, as the Sealog upload control allows. */
export const maxUploadFiles = 5;

const m = recordFormMessages;

/** True when a configured ID pattern exists and the ID does not match it (a warning, still submittable). */
export function isNonStandardId(id: string, pattern: string | null | undefined): boolean {
  if (!pattern || id === '') return false;
  let re: RegExp;
  try {
    re = new RegExp(pattern);
  } catch {
    // A broken pattern in the settings must not block the crew.
    return false;
  }
  return !re.test(id);
}

/** "a, b,,c " → ["a", "b", "c"]: comma-delimited, trimmed, empties dropped. */
export function splitList(text: string): string[] {
  return text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** The form's text for a list: "a, b, c". */
export function joinList(list: readonly string[] | undefined): string {
  return (list ?? []).join(', ');
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * A time as the lowering form shows it: `YYYY-MM-DD HH:mm` (UTC), with seconds and milliseconds
 * only when the stored time has them, so saving an untouched form never moves a time.
 */
export function formatFormDateTime(ts: string | number | Date): string {
  const d = new Date(ts);
  if (Number.isNaN(d.getTime())) return '';
  let out = `${formatIsoDate(d)} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
  const s = d.getUTCSeconds();
  const ms = d.getUTCMilliseconds();
  if (s !== 0 || ms !== 0) out += `:${pad(s)}`;
  if (ms !== 0) out += `.${String(ms).padStart(3, '0')}`;
  return out;
}

/**
 * A typed date-time as epoch ms, UTC; null when not one. Any form the date/time fields accept
 * (docs/screens.md#date-and-time-fields): a date alone is the start of its day, or its end for a stop.
 */
export function parseFormDateTime(text: string, edge: TimeEdge = 'start'): number | null {
  return parseUtcInput(text, edge);
}

/** A typed date (`YYYY-MM-DD`, or a date-time: its day is taken) as epoch ms of its 00:00 UTC; null when not one. */
export function parseFormDate(text: string): number | null {
  const t = parseUtcInput(text);
  return t === null ? null : Math.floor(t / 86_400_000) * 86_400_000;
}

/** The last second of a day: a cruise's stop is forced to 23:59:59 of the chosen day, so the
 * cruise holds that day's events (membership is by time: docs/wire.md#membership-by-time). */
export function endOfDay(dayStartMs: number): number {
  return dayStartMs + 24 * 3600_000 - 1000;
}

type Fail<K extends string> = (path: K, message: string) => void;

function checkId<K extends string>(id: string, path: K, fail: Fail<K>) {
  if (id.trim() === '') fail(path, m.required);
  else if (id.length > recordIdMaxLength) fail(path, m.idTooLong);
}

function checkTimes<K extends string>(
  start: string,
  stop: string,
  parse: (text: string, edge: TimeEdge) => number | null,
  stopOf: (ms: number) => number,
  fail: Fail<K | 'start_ts' | 'stop_ts'>,
) {
  const a = start.trim() === '' ? undefined : parse(start, 'start');
  const b = stop.trim() === '' ? undefined : parse(stop, 'end');
  if (a === undefined) fail('start_ts', m.required);
  else if (a === null) fail('start_ts', m.invalidTimestamp);
  if (b === undefined) fail('stop_ts', m.required);
  else if (b === null) fail('stop_ts', m.invalidTimestamp);
  if (typeof a === 'number' && typeof b === 'number' && stopOf(b) <= a) fail('stop_ts', m.stopBeforeStart);
}

// ---------------------------------------------------------------------------------------------
// Lowerings

/** What the lowering form holds (times and tags as typed). */
export interface LoweringFormValues {
  lowering_id: string;
  /** lowering_additional_meta.lowering_name: a free name beside the ID. */
  lowering_name: string;
  lowering_location: string;
  lowering_description: string;
  start_ts: string;
  stop_ts: string;
  lowering_tags: string;
}

/**
 * The lowering form. Every rule runs on every submit, so all problems show at once. With
 * `locked` (a non-admin editing) the ID and times are neither editable nor sent, so not checked.
 */
export function loweringFormSchemaFor(opts: { locked: boolean }) {
  return z
    .object({
      lowering_id: z.string(),
      lowering_name: z.string(),
      lowering_location: z.string(),
      lowering_description: z.string(),
      start_ts: z.string(),
      stop_ts: z.string(),
      lowering_tags: z.string(),
    })
    .check(
      z.superRefine((form, ctx) => {
        if (opts.locked) return;
        const fail = (path: keyof LoweringFormValues, message: string) =>
          ctx.addIssue({ code: 'custom', path: [path], message });
        checkId(form.lowering_id, 'lowering_id', fail);
        checkTimes(form.start_ts, form.stop_ts, parseFormDateTime, (ms) => ms, fail);
      }),
    );
}

/** The admin's lowering form (every field checked). */
export const loweringFormSchema = loweringFormSchemaFor({ locked: false });

/** A new lowering: start now (UTC, seconds zeroed), stop one day later. */
export function emptyLoweringForm(now: number = Date.now()): LoweringFormValues {
  const start = Math.floor(now / 60_000) * 60_000;
  return {
    lowering_id: '',
    lowering_name: '',
    lowering_location: '',
    lowering_description: '',
    start_ts: formatFormDateTime(start),
    stop_ts: formatFormDateTime(start + 24 * 3600_000),
    lowering_tags: '',
  };
}

export function loweringToForm(lowering: Lowering): LoweringFormValues {
  const meta = lowering.lowering_additional_meta;
  return {
    lowering_id: lowering.lowering_id,
    lowering_name: meta.lowering_name ?? '',
    lowering_location: lowering.lowering_location,
    lowering_description: meta.lowering_description ?? '',
    start_ts: formatFormDateTime(lowering.start_ts),
    stop_ts: formatFormDateTime(lowering.stop_ts),
    lowering_tags: joinList(lowering.lowering_tags),
  };
}

/** POST /lowerings from the form: empty texts are "", hidden false, tags a trimmed list. */
export function loweringCreateBody(form: LoweringFormValues): CreateLoweringBody {
  return {
    lowering_id: form.lowering_id.trim(),
    start_ts: toIso(parseFormDateTime(form.start_ts)!),
    stop_ts: toIso(parseFormDateTime(form.stop_ts, 'end')!),
    lowering_location: form.lowering_location.trim(),
    lowering_additional_meta: {
      ...(form.lowering_name.trim() ? { lowering_name: form.lowering_name.trim() } : {}),
      lowering_description: form.lowering_description,
    },
    lowering_tags: splitList(form.lowering_tags),
    lowering_hidden: false,
  };
}

/**
 * PATCH /lowerings/{id} from the form. The meta is replaced whole
 * on the server, so the stored milestones, stats and other keys go back with it; the existing
 * file names never do, only the upload ids of new files. A non-admin cannot change the ID or the
 * times (docs/roles-and-access.md#cruise-managers): those are left out.
 */
export function loweringUpdateBody(
  form: LoweringFormValues,
  stored: Lowering,
  opts: { isAdmin: boolean; uploads?: readonly string[] },
): UpdateLoweringBody {
  const { lowering_files: _existing, ...meta } = stored.lowering_additional_meta;
  return {
    ...(opts.isAdmin
      ? {
          lowering_id: form.lowering_id.trim(),
          start_ts: toIso(parseFormDateTime(form.start_ts)!),
          stop_ts: toIso(parseFormDateTime(form.stop_ts, 'end')!),
        }
      : {}),
    lowering_location: form.lowering_location.trim(),
    lowering_additional_meta: {
      ...meta,
      // A name is sent when given, or to clear a stored one; a lowering without one gets no empty key.
      ...(form.lowering_name.trim() || meta.lowering_name !== undefined
        ? { lowering_name: form.lowering_name.trim() }
        : {}),
      lowering_description: form.lowering_description,
      ...(opts.uploads && opts.uploads.length > 0 ? { lowering_files: [...opts.uploads] } : {}),
    },
    lowering_tags: splitList(form.lowering_tags),
  };
}

/** Lowering search: case-insensitive on the ID and location, or an exact tag. */
export function matchesLoweringSearch(
  lowering: Pick<Lowering, 'lowering_id' | 'lowering_location' | 'lowering_tags'>,
  search: string,
): boolean {
  const raw = search.trim();
  if (raw === '') return true;
  const needle = raw.toLowerCase();
  return (
    lowering.lowering_id.toLowerCase().includes(needle) ||
    lowering.lowering_location.toLowerCase().includes(needle) ||
    lowering.lowering_tags.includes(raw)
  );
}

// ---------------------------------------------------------------------------------------------
// Cruises

/** What the cruise form holds (dates, participants and tags as typed). */
export interface CruiseFormValues {
  cruise_id: string;
  cruise_name: string;
  cruise_vessel: string;
  cruise_pi: string;
  cruise_location: string;
  cruise_description: string;
  start_ts: string;
  stop_ts: string;
  cruise_departure_location: string;
  cruise_arrival_location: string;
  cruise_participants: string;
  cruise_tags: string;
}

/**
 * The cruise form. The stop is compared as 23:59:59 of its day, as it is saved. With
 * `locked` (a cruise_manager) the ID, vessel, PI, dates and ports are neither editable nor sent,
 * so not checked.
 */
export function cruiseFormSchemaFor(opts: { locked: boolean }) {
  return z
    .object({
      cruise_id: z.string(),
      cruise_name: z.string(),
      cruise_vessel: z.string(),
      cruise_pi: z.string(),
      cruise_location: z.string(),
      cruise_description: z.string(),
      start_ts: z.string(),
      stop_ts: z.string(),
      cruise_departure_location: z.string(),
      cruise_arrival_location: z.string(),
      cruise_participants: z.string(),
      cruise_tags: z.string(),
    })
    .check(
      z.superRefine((form, ctx) => {
        if (opts.locked) return;
        const fail = (path: keyof CruiseFormValues, message: string) =>
          ctx.addIssue({ code: 'custom', path: [path], message });
        checkId(form.cruise_id, 'cruise_id', fail);
        for (const key of [
          'cruise_vessel',
          'cruise_pi',
          'cruise_departure_location',
          'cruise_arrival_location',
        ] as const) {
          if (form[key].trim() === '') fail(key, m.required);
        }
        checkTimes(form.start_ts, form.stop_ts, parseFormDate, endOfDay, fail);
      }),
    );
}

/** The admin's cruise form (every field checked). */
export const cruiseFormSchema = cruiseFormSchemaFor({ locked: false });

/** A new cruise: start today (00:00 UTC), the configured default vessel. */
export function emptyCruiseForm(defaultVessel: string, now: number = Date.now()): CruiseFormValues {
  return {
    cruise_id: '',
    cruise_name: '',
    cruise_vessel: defaultVessel,
    cruise_pi: '',
    cruise_location: '',
    cruise_description: '',
    start_ts: formatIsoDate(now),
    stop_ts: '',
    cruise_departure_location: '',
    cruise_arrival_location: '',
    cruise_participants: '',
    cruise_tags: '',
  };
}

export function cruiseToForm(cruise: Cruise): CruiseFormValues {
  const meta = cruise.cruise_additional_meta;
  return {
    cruise_id: cruise.cruise_id,
    cruise_name: meta.cruise_name ?? '',
    cruise_vessel: meta.cruise_vessel ?? '',
    cruise_pi: meta.cruise_pi ?? '',
    cruise_location: cruise.cruise_location,
    cruise_description: meta.cruise_description ?? '',
    start_ts: formatIsoDate(cruise.start_ts),
    stop_ts: formatIsoDate(cruise.stop_ts),
    cruise_departure_location: meta.cruise_departure_location ?? '',
    cruise_arrival_location: meta.cruise_arrival_location ?? '',
    cruise_participants: joinList(meta.cruise_participants),
    cruise_tags: joinList(cruise.cruise_tags),
  };
}

function cruiseTimes(form: CruiseFormValues) {
  return {
    start_ts: toIso(parseFormDate(form.start_ts)!),
    stop_ts: toIso(endOfDay(parseFormDate(form.stop_ts)!)),
  };
}

function cruiseMeta(form: CruiseFormValues) {
  return {
    cruise_name: form.cruise_name.trim(),
    cruise_vessel: form.cruise_vessel.trim(),
    cruise_pi: form.cruise_pi.trim(),
    cruise_description: form.cruise_description,
    cruise_departure_location: form.cruise_departure_location.trim(),
    cruise_arrival_location: form.cruise_arrival_location.trim(),
    cruise_participants: splitList(form.cruise_participants),
  };
}

/** POST /cruises from the form: start 00:00, stop 23:59:59 of their days, lists trimmed. */
export function cruiseCreateBody(form: CruiseFormValues): CreateCruiseBody {
  return {
    cruise_id: form.cruise_id.trim(),
    ...cruiseTimes(form),
    cruise_location: form.cruise_location.trim(),
    cruise_additional_meta: cruiseMeta(form),
    cruise_tags: splitList(form.cruise_tags),
    cruise_hidden: false,
  };
}

/**
 * PATCH /cruises/{id} from the form. Stored meta keys the form does not show are kept; existing
 * file names never go back, only new upload ids. A cruise_manager cannot change the ID, times,
 * vessel, PI or ports (docs/roles-and-access.md#cruise-managers): those are left out and the server keeps them.
 */
export function cruiseUpdateBody(
  form: CruiseFormValues,
  stored: Cruise,
  opts: { isAdmin: boolean; uploads?: readonly string[] },
): UpdateCruiseBody {
  const { cruise_files: _existing, ...storedMeta } = stored.cruise_additional_meta;
  const meta: Record<string, unknown> = { ...storedMeta, ...cruiseMeta(form) };
  if (!opts.isAdmin) {
    for (const key of ['cruise_vessel', 'cruise_pi', 'cruise_departure_location', 'cruise_arrival_location']) {
      delete meta[key];
    }
  }
  if (opts.uploads && opts.uploads.length > 0) meta.cruise_files = [...opts.uploads];
  return {
    ...(opts.isAdmin ? { cruise_id: form.cruise_id.trim(), ...cruiseTimes(form) } : {}),
    cruise_location: form.cruise_location.trim(),
    cruise_additional_meta: meta,
    cruise_tags: splitList(form.cruise_tags),
  };
}

/**
 * Cruise search: case-insensitive on the ID, location, vessel, PI, ports and participants, or an
 * exact tag.
 */
export function matchesCruiseSearch(
  cruise: Pick<Cruise, 'cruise_id' | 'cruise_location' | 'cruise_tags' | 'cruise_additional_meta'>,
  search: string,
): boolean {
  const raw = search.trim();
  if (raw === '') return true;
  const needle = raw.toLowerCase();
  const meta = cruise.cruise_additional_meta;
  const texts = [
    cruise.cruise_id,
    cruise.cruise_location,
    meta.cruise_vessel,
    meta.cruise_pi,
    meta.cruise_departure_location,
    meta.cruise_arrival_location,
    ...(meta.cruise_participants ?? []),
  ];
  return (
    texts.some((t) => typeof t === 'string' && t.toLowerCase().includes(needle)) || cruise.cruise_tags.includes(raw)
  );
}

/** Whether a time lies inside a record's start–stop (inclusive): the active cruise, lowerings of a cruise. */
export function covers(record: { start_ts: string; stop_ts: string }, ts: string | number): boolean {
  const t = typeof ts === 'number' ? ts : Date.parse(ts);
  return Date.parse(record.start_ts) <= t && t <= Date.parse(record.stop_ts);
}
