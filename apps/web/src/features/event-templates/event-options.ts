import dayjs from 'dayjs';
import customParseFormat from 'dayjs/plugin/customParseFormat';
import utc from 'dayjs/plugin/utc';
import { splitCheckboxDefault, type EventOption, type EventTemplate } from '@bathylog/shared';

dayjs.extend(utc);
dayjs.extend(customParseFormat);

/**
 * The rules of the options modal (client-behaviour §7.2) as plain functions: what each control
 * starts with, what it checks, and the event options it produces. The modal (event-options-form)
 * and the logging console share them.
 */

/** Custom Time format, always UTC. */
export const customTimeFormat = 'YYYY-MM-DD HH:mm:ss';

export const eventOptionsMessages = {
  required: 'Required',
  chooseOne: 'Must select at least one option',
  invalidTimestamp: 'Invalid timestamp',
} as const;

/** One answer per template option, by position: a string, or the chosen values of checkboxes. */
export type OptionAnswer = string | string[];

export interface EventOptionsState {
  answers: OptionAnswer[];
  freeText: string;
  /** The Custom Time text as typed. */
  time: string;
}

/** What the form hands back on submit. */
export interface EventOptionsValues {
  /** In template order; options left empty are not included. */
  event_options: EventOption[];
  event_free_text: string;
  /** ISO 8601 UTC with milliseconds. */
  ts: string;
}

/** Field errors: `option-<index>`, `freeText`, `time`. */
export type EventOptionsErrors = Partial<Record<string, string>>;

/** An ISO time as the Custom Time field shows it (UTC). */
export function formatCustomTime(iso: string | number | Date): string {
  return dayjs.utc(iso).format(customTimeFormat);
}

/** A typed Custom Time as ISO, or null when it is not a valid `YYYY-MM-DD HH:mm:ss`. */
export function parseCustomTime(text: string): string | null {
  const parsed = dayjs.utc(text.trim(), customTimeFormat, true);
  return parsed.isValid() ? parsed.toISOString() : null;
}

/** The controls' starting values: the defaults (checkbox defaults are a comma list). */
export function initialEventOptionsState(template: EventTemplate, initialTs?: string): EventOptionsState {
  return {
    answers: template.event_options.map((option) => {
      const fallback = option.event_option_default_value ?? '';
      if (option.event_option_type === 'checkboxes') {
        // Only values the list offers: a stale default would otherwise be submitted unseen.
        return splitCheckboxDefault(fallback).filter((v) => option.event_option_values.includes(v));
      }
      return fallback;
    }),
    freeText: '',
    time: formatCustomTime(initialTs ?? new Date()),
  };
}

const isEmpty = (answer: OptionAnswer | undefined) =>
  answer === undefined || (Array.isArray(answer) ? answer.length === 0 : answer.trim() === '');

/** Checks the state; an empty object means it can be submitted. */
export function validateEventOptions(template: EventTemplate, state: EventOptionsState): EventOptionsErrors {
  const errors: EventOptionsErrors = {};
  template.event_options.forEach((option, i) => {
    if (!option.event_option_required || option.event_option_type === 'static text') return;
    if (!isEmpty(state.answers[i])) return;
    const choice = option.event_option_type === 'checkboxes' || option.event_option_type === 'radio buttons';
    errors[`option-${i}`] = choice ? eventOptionsMessages.chooseOne : eventOptionsMessages.required;
  });
  if (template.event_free_text_required && state.freeText.trim() === '') {
    errors.freeText = eventOptionsMessages.required;
  }
  if (state.time.trim() === '') errors.time = eventOptionsMessages.required;
  else if (parseCustomTime(state.time) === null) errors.time = eventOptionsMessages.invalidTimestamp;
  return errors;
}

/**
 * The event's options: one per template option with a value, in template order; checkbox values
 * joined with `;` (seed 000 §3). Empty values are left out (client-behaviour §7.2).
 */
export function eventOptionsFromState(template: EventTemplate, state: EventOptionsState): EventOption[] {
  const out: EventOption[] = [];
  template.event_options.forEach((option, i) => {
    const answer = state.answers[i];
    const value = Array.isArray(answer)
      ? option.event_option_values.filter((v) => answer.includes(v)).join(';')
      : (answer ?? '').trim();
    if (value !== '') out.push({ event_option_name: option.event_option_name, event_option_value: value });
  });
  return out;
}

/** The submitted values, or null when the state does not validate. */
export function eventOptionsValues(template: EventTemplate, state: EventOptionsState): EventOptionsValues | null {
  if (Object.keys(validateEventOptions(template, state)).length > 0) return null;
  return {
    event_options: eventOptionsFromState(template, state),
    event_free_text: state.freeText,
    ts: parseCustomTime(state.time)!,
  };
}
