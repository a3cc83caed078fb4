import type { EventOption } from '../schemas/events.js';
import {
  optionNameKey,
  splitCheckboxDefault,
  type EventTemplate,
  type EventTemplateOption,
} from '../schemas/event-templates.js';
import { parseUtcInput } from '../time.js';
import { taxonEventOptions, taxonQualifiers, taxonOptionType, type TaxonQualifier } from '../schemas/taxa.js';

/**
 * The event options modal of the logging console, as the Sealog client behaves: when a click opens
 * it, what it starts with, its validation messages and what it sends. The console and the template
 * editor's test preview both use these rules.
 */

/** The modal's messages, word for word as the Sealog client shows them. */
export const eventOptionsMessages = {
  required: 'Required',
  selectAtLeastOne: 'Must select at least one option',
  invalidTimestamp: 'Invalid timestamp',
  invalidCount: 'Count must be a whole number',
  invalidAbundance: 'Choose one of the abundance bins',
} as const;

/** How the Custom Time (UTC) field shows a time. */
export const customTimeFormat = 'YYYY-MM-DD HH:mm:ss';

/** Checkbox choices are stored as one value joined with semicolons, as Sealog
 * stores them (scripts split on it). */
export const checkboxValueSeparator = ';';

type TemplateInput = Pick<EventTemplate, 'event_free_text_required' | 'event_options'>;

/**
 * Whether a click on the template needs the options modal: free text is required, an option needs
 * a choice or an entry (any type other than static text), or shift is held. A template whose
 * options are all static text (every milestone button) logs in one click, as in the Sealog
 * client (a written description of it says the opposite; the client is what crews know).
 */
export function templateNeedsInput(template: TemplateInput, shiftKey = false): boolean {
  if (shiftKey || template.event_free_text_required) return true;
  return template.event_options.some((o) => o.event_option_type !== 'static text');
}

/** The one-click path: every option with its default value, empty defaults included, as the
 * Sealog client sends them. */
export function defaultEventOptions(template: Pick<EventTemplate, 'event_options'>): EventOption[] {
  const visible = optionVisibility(template, initialEventOptionsValues(template, 0).options);
  return template.event_options
    .filter((_, i) => visible[i])
    .map((o) => ({
      event_option_name: o.event_option_name,
      event_option_value: o.event_option_default_value ?? '',
    }));
}

/**
 * One field of the modal: checkboxes hold the chosen values, every other type one string. A taxon
 * option's string is its pick as JSON (`taxonFieldValue`), or '' before a taxon is picked.
 */
export type EventOptionFieldValue = string | string[];

/** A taxon option's pick in the modal (docs/taxa.md#a-taxon-in-an-event). */
export interface TaxonPick {
  name: string;
  aphia_id: number;
  qualifier: TaxonQualifier;
  /** The count as typed (checked on submit). */
  count?: string;
  abundance?: string;
}

export const taxonFieldValue = (pick: TaxonPick): string => JSON.stringify(pick);

/** The pick a taxon field holds, or null for '' or anything that is not one. */
export function parseTaxonFieldValue(value: EventOptionFieldValue | undefined): TaxonPick | null {
  if (typeof value !== 'string' || value.trim() === '') return null;
  try {
    const v = JSON.parse(value) as Partial<TaxonPick>;
    if (typeof v.name !== 'string' || !Number.isSafeInteger(v.aphia_id) || (v.aphia_id ?? 0) <= 0) return null;
    const qualifier = (taxonQualifiers as readonly string[]).includes(v.qualifier ?? '') ? v.qualifier! : '';
    return {
      name: v.name,
      aphia_id: v.aphia_id!,
      qualifier,
      ...(typeof v.count === 'string' ? { count: v.count } : {}),
      ...(typeof v.abundance === 'string' ? { abundance: v.abundance } : {}),
    };
  } catch {
    return null;
  }
}

/** A count a logger may type: a whole number, 0 to 999,999,999. */
const countPattern = /^(0|[1-9][0-9]{0,8})$/;

export interface EventOptionsFormValues {
  /** In template order. */
  options: EventOptionFieldValue[];
  freeText: string;
  /** `YYYY-MM-DD HH:mm:ss`, UTC. */
  customTime: string;
}

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

/**
 * Epoch ms → `YYYY-MM-DD HH:mm:ss` in UTC. `keepMs`: add `.SSS` when the time has milliseconds, for
 * a bound that must not move (a filter clamped to a lowering's stop at 08:32:32.654 that became
 * 08:32:32 would drop the events of that last second).
 */
export function formatCustomTime(epochMs: number, opts: { keepMs?: boolean } = {}): string {
  const d = new Date(epochMs);
  const ms = d.getUTCMilliseconds();
  return (
    `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ` +
    `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}` +
    (opts.keepMs && ms !== 0 ? `.${String(ms).padStart(3, '0')}` : '')
  );
}

/**
 * A typed custom time → epoch ms, or null. Takes what every date/time field takes
 * (docs/screens.md#date-and-time-fields): `YYYY-MM-DD HH:mm:ss` (optionally with `.SSS`), a date
 * alone, `YYYY-MM-DD HH:mm`, read as UTC whatever the browser's zone, and full ISO-8601 strings
 * (pasted from an event line).
 */
export function parseCustomTime(text: string): number | null {
  return parseUtcInput(text);
}

function initialValue(option: EventTemplateOption): EventOptionFieldValue {
  if (option.event_option_type === taxonOptionType) return '';
  const fallback = option.event_option_default_value ?? '';
  if (option.event_option_type === 'checkboxes') {
    // A default may list several values with commas ("EM124,EM712"); keep only real choices.
    if (option.event_option_values.includes(fallback)) return [fallback];
    return splitCheckboxDefault(fallback).filter((v) => option.event_option_values.includes(v));
  }
  return fallback;
}

/** The value a field holds when empty: no checked values, or no text. */
function emptyValue(option: EventTemplateOption): EventOptionFieldValue {
  return option.event_option_type === 'checkboxes' ? [] : '';
}

/** The value an option contributes to another's visibility rule (static text: its fixed text). */
function ruleValues(option: EventTemplateOption, value: EventOptionFieldValue | undefined): string[] {
  if (option.event_option_type === 'static text') return [option.event_option_default_value ?? ''];
  if (option.event_option_type === taxonOptionType) {
    const pick = parseTaxonFieldValue(value);
    return pick ? [pick.name] : [];
  }
  if (Array.isArray(value)) return value;
  return value === undefined || value.trim() === '' ? [] : [value.trim()];
}

/**
 * Which options are shown for these field values (Sealog 2.4.2 `event_option_visibility`): an
 * option with a `show if` rule is shown while the named option's value (or one of its checked
 * values) is in the rule's list, `hide if` the reverse. A hidden option counts as empty for the
 * rules that name it. A rule naming a missing option (the API refuses those) or caught in a
 * cycle leaves its option shown. In template order.
 */
export function optionVisibility(
  template: Pick<EventTemplate, 'event_options'>,
  values: readonly (EventOptionFieldValue | undefined)[],
): boolean[] {
  const options = template.event_options;
  const keys = options.map((o) => optionNameKey(o.event_option_name));
  const memo = new Map<number, boolean>();
  const visiting = new Set<number>();
  const visible = (i: number): boolean => {
    const known = memo.get(i);
    if (known !== undefined) return known;
    const rule = options[i]!.event_option_visibility;
    const target = rule ? keys.indexOf(optionNameKey(rule.event_option_name)) : -1;
    if (!rule || target < 0 || target === i || visiting.has(i)) return true;
    visiting.add(i);
    const targetValues = visible(target) ? ruleValues(options[target]!, values[target]) : [];
    visiting.delete(i);
    const hit = targetValues.some((v) => rule.event_option_values.includes(v));
    const result = rule.show_hide === 'show if' ? hit : !hit;
    memo.set(i, result);
    return result;
  };
  return options.map((_, i) => visible(i));
}

/**
 * The field values with every hidden option emptied, so a value typed or chosen before its option
 * was hidden is never sent. Returns the same object when nothing changes.
 */
export function clearHiddenOptions(
  template: Pick<EventTemplate, 'event_options'>,
  values: EventOptionsFormValues,
): EventOptionsFormValues {
  const visible = optionVisibility(template, values.options);
  let changed = false;
  const options = values.options.map((value, i) => {
    const option = template.event_options[i];
    if (!option || visible[i] || option.event_option_type === 'static text') return value;
    const empty = emptyValue(option);
    if (Array.isArray(value) ? value.length === 0 : (value ?? '') === '') return value;
    changed = true;
    return empty;
  });
  return changed ? { ...values, options } : values;
}

/** What the modal starts with: defaults, empty text, and the created event's time (so
 * submitting without touching it keeps the moment of the click). */
export function initialEventOptionsValues(
  template: Pick<EventTemplate, 'event_options'>,
  eventTs: number,
): EventOptionsFormValues {
  return clearHiddenOptions(template, {
    options: template.event_options.map(initialValue),
    freeText: '',
    customTime: formatCustomTime(eventTs),
  });
}

export interface EventOptionsErrors {
  /** By option index. */
  options: Record<number, string>;
  freeText?: string;
  customTime?: string;
}

function isEmpty(value: EventOptionFieldValue | undefined): boolean {
  if (value === undefined) return true;
  return Array.isArray(value) ? value.length === 0 : value.trim() === '';
}

/** The modal's validation; null when the form may be submitted. */
export function validateEventOptions(
  template: TemplateInput,
  values: EventOptionsFormValues,
): EventOptionsErrors | null {
  const errors: EventOptionsErrors = { options: {} };
  let failed = false;
  const visible = optionVisibility(template, values.options);
  template.event_options.forEach((option, i) => {
    if (visible[i] && option.event_option_type === taxonOptionType && !isEmpty(values.options[i])) {
      const problem = taxonPickProblem(option, parseTaxonFieldValue(values.options[i]));
      if (problem) {
        errors.options[i] = problem;
        failed = true;
        return;
      }
    }
    // A hidden option is never required.
    if (!visible[i] || !option.event_option_required || !isEmpty(values.options[i])) return;
    const choice = option.event_option_type === 'checkboxes' || option.event_option_type === 'radio buttons';
    errors.options[i] = choice ? eventOptionsMessages.selectAtLeastOne : eventOptionsMessages.required;
    failed = true;
  });
  if (template.event_free_text_required && values.freeText.trim() === '') {
    errors.freeText = eventOptionsMessages.required;
    failed = true;
  }
  if (values.customTime.trim() === '') {
    errors.customTime = eventOptionsMessages.required;
    failed = true;
  } else if (parseCustomTime(values.customTime) === null) {
    errors.customTime = eventOptionsMessages.invalidTimestamp;
    failed = true;
  }
  return failed ? errors : null;
}

/** Why a taxon pick cannot be sent (a count that is not a whole number, a bin not offered), or null. */
export function taxonPickProblem(option: EventTemplateOption, pick: TaxonPick | null): string | null {
  if (!pick) return eventOptionsMessages.required;
  const quantity = option.event_option_taxon?.quantity ?? 'count';
  if (quantity === 'count' && (pick.count ?? '').trim() !== '' && !countPattern.test(pick.count!.trim()))
    return eventOptionsMessages.invalidCount;
  if (quantity === 'abundance' && pick.abundance && !option.event_option_values.includes(pick.abundance))
    return eventOptionsMessages.invalidAbundance;
  return null;
}

/** The PATCH body the modal sends. */
export interface EventOptionsUpdate {
  ts: string;
  event_free_text: string;
  event_options: EventOption[];
}

function submittedValue(option: EventTemplateOption, value: EventOptionFieldValue | undefined): string {
  // Static text cannot be edited: it always sends its default.
  if (option.event_option_type === 'static text') return option.event_option_default_value ?? '';
  if (Array.isArray(value)) {
    // Joined in the template's order, whatever order they were ticked in.
    return option.event_option_values.filter((v) => value.includes(v)).join(checkboxValueSeparator);
  }
  return (value ?? '').trim();
}

/**
 * The update for a valid form: hidden options and options with an empty value are left out, checkbox choices are
 * joined with semicolons. An untouched custom time keeps the event's own milliseconds (the field
 * shows whole seconds), so submitting does not move the event.
 */
export function buildEventOptionsUpdate(
  template: TemplateInput,
  values: EventOptionsFormValues,
  eventTs: number,
): EventOptionsUpdate {
  const event_options: EventOption[] = [];
  const visible = optionVisibility(template, values.options);
  template.event_options.forEach((option, i) => {
    if (!visible[i]) return; // Hidden options are left out, static text included.
    if (option.event_option_type === taxonOptionType) {
      // One pick writes the contract's options: name, AphiaID, qualifier, count or bin.
      const pick = parseTaxonFieldValue(values.options[i]);
      if (!pick) return;
      const quantity = option.event_option_taxon?.quantity ?? 'count';
      const count = (pick.count ?? '').trim();
      event_options.push(
        ...taxonEventOptions(option.event_option_name, {
          name: pick.name,
          aphia_id: pick.aphia_id,
          qualifier: pick.qualifier,
          ...(quantity === 'count' && count !== '' ? { count: Number(count) } : {}),
          ...(quantity === 'abundance' && pick.abundance ? { abundance: pick.abundance } : {}),
        }),
      );
      return;
    }
    const value = submittedValue(option, values.options[i]);
    if (value !== '') event_options.push({ event_option_name: option.event_option_name, event_option_value: value });
  });
  const typed = values.customTime.trim();
  const ts = typed === formatCustomTime(eventTs) ? eventTs : parseCustomTime(typed);
  if (ts === null) throw new Error(eventOptionsMessages.invalidTimestamp);
  return { ts: new Date(ts).toISOString(), event_free_text: values.freeText.trim(), event_options };
}
