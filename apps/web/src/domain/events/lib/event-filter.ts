import { eventOptionsMessages, formatCustomTime, parseUtcInput, splitFilterTerms } from '@bathylog/shared';
import type { EventQuery } from '../api/events';

/** The Event Filter form as typed (docs/screens.md#event-filter). */
export interface EventFilterForm {
  fulltext: string;
  author: string;
  value: string;
  datasource: string;
  /** `YYYY-MM-DD HH:mm:ss`, UTC. */
  start: string;
  stop: string;
}

export const emptyEventFilter: EventFilterForm = {
  fulltext: '',
  author: '',
  value: '',
  datasource: '',
  start: '',
  stop: '',
};

export const asnapExclusion = '!ASNAP';

export type EventFilterErrors = Partial<Record<keyof EventFilterForm, string>>;

export interface FilterBounds {
  /** Earliest time the user may see (non-admins: the current cruise's start), ISO. */
  min?: string;
  /** Latest time there can be events (now), ISO. */
  max: string;
}

export const filterMessages = {
  invalidTimestamp: eventOptionsMessages.invalidTimestamp,
  stopBeforeStart: 'Stop date/time must be later than start date/time',
} as const;

/**
 * Checks the form and clamps its times (docs/screens.md#event-filter): a start before the earliest
 * allowed time becomes that time, a stop after the latest becomes the latest. Returns the clamped
 * form (what the user then sees) or the errors.
 */
export function checkEventFilter(
  form: EventFilterForm,
  bounds: FilterBounds,
): { form: EventFilterForm; errors: EventFilterErrors | null } {
  const errors: EventFilterErrors = {};
  const min = bounds.min ? Date.parse(bounds.min) : null;
  const max = Date.parse(bounds.max);
  let start = form.start.trim() === '' ? null : parseUtcInput(form.start, 'start');
  let stop = form.stop.trim() === '' ? null : parseUtcInput(form.stop, 'end');
  if (form.start.trim() !== '' && start === null) errors.start = filterMessages.invalidTimestamp;
  if (form.stop.trim() !== '' && stop === null) errors.stop = filterMessages.invalidTimestamp;
  if (start !== null && min !== null && start < min) start = min;
  if (start !== null && start > max) start = max;
  if (stop !== null && stop > max) stop = max;
  if (stop !== null && min !== null && stop < min) stop = min;
  if (start !== null && stop !== null && stop < start) errors.stop = filterMessages.stopBeforeStart;
  const clamped: EventFilterForm = {
    ...form,
    start: start === null ? form.start : formatCustomTime(start, { keepMs: true }),
    stop: stop === null ? form.stop : formatCustomTime(stop, { keepMs: true }),
  };
  return { form: clamped, errors: Object.keys(errors).length ? errors : null };
}

/**
 * The list query of a valid form: comma lists trimmed (empties dropped), times as ISO, and
 * `value=!ASNAP` while ASNAP is hidden unless the user gave values of their own
 * (docs/screens.md#event-management). Non-admins never ask before their window.
 */
export function eventFilterQuery(form: EventFilterForm, opts: { hideAsnap: boolean; min?: string }): EventQuery {
  const list = (text: string) => {
    const terms = splitFilterTerms([text]);
    return terms.length ? terms : undefined;
  };
  const values = list(form.value);
  const start = form.start.trim() ? parseUtcInput(form.start, 'start') : null;
  const stop = form.stop.trim() ? parseUtcInput(form.stop, 'end') : null;
  const startTS = start !== null ? new Date(start).toISOString() : opts.min;
  return {
    fulltext: list(form.fulltext),
    author: list(form.author),
    value: values ?? (opts.hideAsnap ? [asnapExclusion] : undefined),
    datasource: list(form.datasource),
    startTS,
    stopTS: stop !== null ? new Date(stop).toISOString() : undefined,
  };
}
