import { describe, expect, it } from 'vitest';
import type { EventTemplateOption } from '../schemas/event-templates.js';
import {
  buildEventOptionsUpdate,
  defaultEventOptions,
  eventOptionsMessages,
  formatCustomTime,
  initialEventOptionsValues,
  parseCustomTime,
  templateNeedsInput,
  validateEventOptions,
} from './event-options.js';

function option(
  overrides: Partial<EventTemplateOption> & Pick<EventTemplateOption, 'event_option_name' | 'event_option_type'>,
): EventTemplateOption {
  return {
    event_option_values: [],
    event_option_default_value: '',
    event_option_allow_freeform: false,
    event_option_required: false,
    ...overrides,
  };
}

const milestone = {
  event_free_text_required: false,
  event_options: [
    option({
      event_option_name: 'Milestone',
      event_option_type: 'static text',
      event_option_default_value: 'Off Deck',
    }),
  ],
};

const sample = {
  event_free_text_required: false,
  event_options: [
    option({ event_option_name: 'Type', event_option_type: 'static text', event_option_default_value: 'Geology' }),
    option({ event_option_name: 'Sample ID', event_option_type: 'text', event_option_required: true }),
    option({
      event_option_name: 'Storage',
      event_option_type: 'checkboxes',
      event_option_values: ['Box A', 'Box B', 'Drawer'],
      event_option_default_value: 'Drawer,Box A',
      event_option_required: true,
    }),
    option({
      event_option_name: 'Kind',
      event_option_type: 'radio buttons',
      event_option_values: ['rock', 'sediment'],
      event_option_required: true,
    }),
    option({ event_option_name: 'Site', event_option_type: 'dropdown', event_option_values: ['Kane', 'Lost City'] }),
  ],
};

const ts = Date.parse('2023-03-14T23:56:07.927Z');

describe('templateNeedsInput (client-behaviour §1 #1)', () => {
  it('static-text-only and option-less templates log in one click', () => {
    expect(templateNeedsInput(milestone)).toBe(false);
    expect(templateNeedsInput({ event_free_text_required: false, event_options: [] })).toBe(false);
  });

  it('required free text, any non-static option or shift opens the modal', () => {
    expect(templateNeedsInput({ ...milestone, event_free_text_required: true })).toBe(true);
    expect(templateNeedsInput(sample)).toBe(true);
    expect(templateNeedsInput(milestone, true)).toBe(true);
    expect(
      templateNeedsInput({
        event_free_text_required: false,
        event_options: [option({ event_option_name: 'Count', event_option_type: 'text' })],
      }),
    ).toBe(true);
  });
});

describe('defaultEventOptions', () => {
  it('sends every option with its default, empty ones included', () => {
    expect(defaultEventOptions(sample)).toEqual([
      { event_option_name: 'Type', event_option_value: 'Geology' },
      { event_option_name: 'Sample ID', event_option_value: '' },
      { event_option_name: 'Storage', event_option_value: 'Drawer,Box A' },
      { event_option_name: 'Kind', event_option_value: '' },
      { event_option_name: 'Site', event_option_value: '' },
    ]);
  });
});

describe('custom time', () => {
  it('formats and parses YYYY-MM-DD HH:mm:ss as UTC', () => {
    expect(formatCustomTime(ts)).toBe('2023-03-14 23:56:07');
    expect(parseCustomTime('2023-03-14 23:56:07')).toBe(Date.parse('2023-03-14T23:56:07Z'));
    expect(parseCustomTime('2023-03-14T23:56:07.927Z')).toBe(ts);
    expect(parseCustomTime(' 2023-03-14 23:56 ')).toBe(Date.parse('2023-03-14T23:56:00Z'));
  });

  it('refuses what is not a date-time', () => {
    for (const bad of [
      '',
      'yesterday',
      '2023-03-14',
      '2023-02-30 10:00:00',
      '2023-03-14 25:00:00',
      '14/03/2023 10:00:00',
    ]) {
      expect(parseCustomTime(bad), bad).toBeNull();
    }
  });
});

describe('initialEventOptionsValues', () => {
  it('starts with defaults, checkbox defaults split on commas, and the event time', () => {
    expect(initialEventOptionsValues(sample, ts)).toEqual({
      options: ['Geology', '', ['Drawer', 'Box A'], '', ''],
      freeText: '',
      customTime: '2023-03-14 23:56:07',
    });
  });

  it('keeps only the listed values of a checkbox default, and shows whole seconds', () => {
    const gear = {
      event_free_text_required: false,
      event_options: [
        option({
          event_option_name: 'Gear',
          event_option_type: 'checkboxes',
          event_option_values: ['net', 'trap', 'core'],
          event_option_default_value: 'net, gone',
        }),
      ],
    };
    expect(initialEventOptionsValues(gear, Date.parse('2024-05-06T23:59:59.999Z'))).toEqual({
      options: [['net']],
      freeText: '',
      customTime: '2024-05-06 23:59:59',
    });
  });
});

describe('validateEventOptions (seed 001 §5)', () => {
  it('gives Required, Must select at least one option, and free-text/time messages', () => {
    const values = { options: ['Geology', ' ', [], '', ''], freeText: '', customTime: '' };
    expect(validateEventOptions({ ...sample, event_free_text_required: true }, values)).toEqual({
      options: {
        1: eventOptionsMessages.required,
        2: eventOptionsMessages.selectAtLeastOne,
        3: eventOptionsMessages.selectAtLeastOne,
      },
      freeText: eventOptionsMessages.required,
      customTime: eventOptionsMessages.required,
    });
  });

  it('says Invalid timestamp for a bad custom time', () => {
    const values = {
      options: ['Geology', 'S1', ['Drawer'], 'rock', ''],
      freeText: '',
      customTime: '2023-13-01 00:00:00',
    };
    expect(validateEventOptions(sample, values)).toEqual({
      options: {},
      customTime: eventOptionsMessages.invalidTimestamp,
    });
  });

  it('passes a complete form', () => {
    const values = {
      options: ['Geology', 'S1', ['Drawer'], 'rock', ''],
      freeText: '',
      customTime: '2023-03-14 23:56:07',
    };
    expect(validateEventOptions(sample, values)).toBeNull();
  });
});

describe('buildEventOptionsUpdate', () => {
  it('omits empty values, joins checkboxes with semicolons in template order, keeps static text', () => {
    const values = {
      options: ['edited?', ' S492-Geo-01 ', ['Drawer', 'Box A'], 'rock', ''],
      freeText: ' chimney ',
      customTime: '2023-03-14 23:56:07',
    };
    expect(buildEventOptionsUpdate(sample, values, ts)).toEqual({
      ts: '2023-03-14T23:56:07.927Z',
      event_free_text: 'chimney',
      event_options: [
        { event_option_name: 'Type', event_option_value: 'Geology' },
        { event_option_name: 'Sample ID', event_option_value: 'S492-Geo-01' },
        { event_option_name: 'Storage', event_option_value: 'Box A;Drawer' },
        { event_option_name: 'Kind', event_option_value: 'rock' },
      ],
    });
  });

  it('uses a changed custom time as UTC', () => {
    const values = {
      options: ['Geology', 'S1', ['Drawer'], 'rock', 'Kane'],
      freeText: '',
      customTime: '2023-03-14 20:00:00',
    };
    const update = buildEventOptionsUpdate(sample, values, ts);
    expect(update.ts).toBe('2023-03-14T20:00:00.000Z');
    expect(update.event_options.at(-1)).toEqual({ event_option_name: 'Site', event_option_value: 'Kane' });
  });
});
