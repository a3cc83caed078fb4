import { describe, expect, it } from 'vitest';
import type { EventTemplate } from '@bathylog/shared';
import {
  eventOptionsFromState,
  eventOptionsValues,
  formatCustomTime,
  initialEventOptionsState,
  parseCustomTime,
  validateEventOptions,
} from './event-options';

const template = (o: Partial<EventTemplate> = {}): EventTemplate => ({
  id: '5dac67d6a78d2f4ec028551e',
  event_name: 'Sample',
  event_value: 'SAMPLE',
  event_free_text_required: false,
  system_template: false,
  template_categories: [],
  admin_only: false,
  event_options: [
    {
      event_option_name: 'Kind',
      event_option_type: 'static text',
      event_option_default_value: 'Rock',
      event_option_values: [],
      event_option_required: false,
      event_option_allow_freeform: false,
    },
    {
      event_option_name: 'Note',
      event_option_type: 'text',
      event_option_values: [],
      event_option_required: true,
      event_option_allow_freeform: false,
    },
    {
      event_option_name: 'Tool',
      event_option_type: 'dropdown',
      event_option_default_value: 'scoop',
      event_option_values: ['scoop', 'slurp'],
      event_option_required: true,
      event_option_allow_freeform: false,
    },
    {
      event_option_name: 'Gear',
      event_option_type: 'checkboxes',
      event_option_default_value: 'net, gone',
      event_option_values: ['net', 'trap', 'core'],
      event_option_required: true,
      event_option_allow_freeform: false,
    },
    {
      event_option_name: 'Seen',
      event_option_type: 'radio buttons',
      event_option_values: ['yes', 'no'],
      event_option_required: true,
      event_option_allow_freeform: false,
    },
  ],
  ...o,
});

describe('options modal rules (client-behaviour §7.2)', () => {
  it('starts from the defaults; checkbox defaults keep only listed values', () => {
    const state = initialEventOptionsState(template(), '2024-05-06T11:54:49.123Z');
    expect(state).toEqual({
      answers: ['Rock', '', 'scoop', ['net'], ''],
      freeText: '',
      time: '2024-05-06 11:54:49',
    });
  });

  it('names each missing answer with the seed words', () => {
    const state = initialEventOptionsState(template({ event_free_text_required: true }), '2024-05-06T11:54:49Z');
    state.answers[2] = '';
    state.answers[3] = [];
    expect(validateEventOptions(template({ event_free_text_required: true }), state)).toEqual({
      'option-1': 'Required',
      'option-2': 'Required',
      'option-3': 'Must select at least one option',
      'option-4': 'Must select at least one option',
      freeText: 'Required',
    });
  });

  it('checks the custom time', () => {
    const t = template({ event_options: [] });
    const state = initialEventOptionsState(t);
    expect(validateEventOptions(t, { ...state, time: '' })).toEqual({ time: 'Required' });
    for (const bad of ['2024-13-01 00:00:00', '2024-05-06', '06/05/2024 11:54:49', '2024-05-06T11:54:49']) {
      expect(validateEventOptions(t, { ...state, time: bad }), bad).toEqual({ time: 'Invalid timestamp' });
    }
    expect(parseCustomTime(' 2024-05-06 11:54:49 ')).toBe('2024-05-06T11:54:49.000Z');
    expect(formatCustomTime('2024-05-06T23:59:59.999Z')).toBe('2024-05-06 23:59:59');
  });

  it('gives the event options in template order, checkboxes joined with ;, empties left out', () => {
    const t = template();
    const state = initialEventOptionsState(t, '2024-05-06T11:54:49Z');
    state.answers[1] = ' seen twice ';
    state.answers[3] = ['core', 'net'];
    state.answers[4] = 'no';
    expect(eventOptionsFromState(t, state)).toEqual([
      { event_option_name: 'Kind', event_option_value: 'Rock' },
      { event_option_name: 'Note', event_option_value: 'seen twice' },
      { event_option_name: 'Tool', event_option_value: 'scoop' },
      { event_option_name: 'Gear', event_option_value: 'net;core' },
      { event_option_name: 'Seen', event_option_value: 'no' },
    ]);
    expect(eventOptionsValues(t, { ...state, freeText: 'hello' })).toEqual({
      event_options: expect.any(Array),
      event_free_text: 'hello',
      ts: '2024-05-06T11:54:49.000Z',
    });
    const optional = template({
      event_options: t.event_options.map((o) => ({ ...o, event_option_required: false })),
    });
    const empty = initialEventOptionsState(optional, '2024-05-06T11:54:49Z');
    empty.answers = ['Rock', '', '', [], ''];
    expect(eventOptionsValues(optional, empty)!.event_options).toEqual([
      { event_option_name: 'Kind', event_option_value: 'Rock' },
    ]);
    expect(eventOptionsValues(t, { ...state, time: 'soon' })).toBeNull();
  });
});
