import { describe, expect, it } from 'vitest';
import { eventTemplateOptionsSchema, type EventTemplateOption } from '../schemas/event-templates.js';
import {
  buttonTextColor,
  buttonVariantOf,
  buttonVariants,
  contrastRatio,
  isButtonColor,
  normalizeHexColor,
} from './button-color.js';
import {
  buildEventOptionsUpdate,
  clearHiddenOptions,
  optionVisibility,
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

describe('templateNeedsInput', () => {
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
    expect(parseCustomTime('2023-03-14')).toBe(Date.parse('2023-03-14T00:00:00Z'));
  });

  it('refuses what is not a date-time', () => {
    for (const bad of [
      '',
      'yesterday',
      '2023-3-14',
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

describe('validateEventOptions', () => {
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

describe('option visibility (Sealog 2.4.2 event_option_visibility)', () => {
  const survey = {
    event_free_text_required: false,
    event_options: [
      option({
        event_option_name: 'Kind',
        event_option_type: 'radio buttons',
        event_option_values: ['rock', 'biology'],
      }),
      option({
        event_option_name: 'Rock type',
        event_option_type: 'dropdown',
        event_option_values: ['basalt', 'granite'],
        event_option_default_value: 'basalt',
        event_option_required: true,
        event_option_visibility: { show_hide: 'show if', event_option_name: 'kind', event_option_values: ['rock'] },
      }),
      option({
        event_option_name: 'Grain',
        event_option_type: 'text',
        event_option_visibility: {
          show_hide: 'show if',
          event_option_name: 'Rock type',
          event_option_values: ['granite'],
        },
      }),
      option({
        event_option_name: 'Tags',
        event_option_type: 'checkboxes',
        event_option_values: ['a', 'b'],
        event_option_visibility: { show_hide: 'hide if', event_option_name: 'Kind', event_option_values: ['biology'] },
      }),
    ],
  };

  it('shows "show if" options only for a listed value, hides "hide if" ones, chains through hidden options', () => {
    expect(optionVisibility(survey, ['', 'basalt', '', []])).toEqual([true, false, false, true]);
    expect(optionVisibility(survey, ['rock', 'basalt', '', []])).toEqual([true, true, false, true]);
    expect(optionVisibility(survey, ['rock', 'granite', '', []])).toEqual([true, true, true, true]);
    // Rock type hidden: Grain (shown by Rock type = granite) is hidden with it.
    expect(optionVisibility(survey, ['biology', 'granite', 'x', ['a']])).toEqual([true, false, false, false]);
  });

  it('starts with hidden options empty, never requires them, and leaves them out of the update', () => {
    const start = initialEventOptionsValues(survey, Date.UTC(2024, 0, 1));
    expect(start.options).toEqual(['', '', '', []]);
    expect(validateEventOptions(survey, start)).toBeNull();
    const chosen = { ...start, options: ['rock', '', '', ['a']] };
    expect(validateEventOptions(survey, chosen)?.options).toEqual({ 1: eventOptionsMessages.required });
    const typed = { ...start, options: ['rock', 'granite', 'coarse', ['b']] };
    expect(buildEventOptionsUpdate(survey, typed, Date.UTC(2024, 0, 1)).event_options).toEqual([
      { event_option_name: 'Kind', event_option_value: 'rock' },
      { event_option_name: 'Rock type', event_option_value: 'granite' },
      { event_option_name: 'Grain', event_option_value: 'coarse' },
      { event_option_name: 'Tags', event_option_value: 'b' },
    ]);
    const switched = clearHiddenOptions(survey, { ...typed, options: ['biology', 'granite', 'coarse', ['b']] });
    expect(switched.options).toEqual(['biology', '', '', []]);
    expect(buildEventOptionsUpdate(survey, switched, Date.UTC(2024, 0, 1)).event_options).toEqual([
      { event_option_name: 'Kind', event_option_value: 'biology' },
    ]);
  });

  it('the one-click path sends only the options its defaults show', () => {
    const fixed = {
      event_options: [
        option({ event_option_name: 'Mode', event_option_type: 'static text', event_option_default_value: 'auto' }),
        option({
          event_option_name: 'Note',
          event_option_type: 'static text',
          event_option_default_value: 'manual only',
          event_option_visibility: { show_hide: 'show if', event_option_name: 'Mode', event_option_values: ['manual'] },
        }),
      ],
    };
    expect(defaultEventOptions(fixed)).toEqual([{ event_option_name: 'Mode', event_option_value: 'auto' }]);
  });

  it('the stored-template rule refuses a missing option, the option itself and an empty list', () => {
    const base = survey.event_options;
    const withRule = (rule: EventTemplateOption['event_option_visibility']) =>
      eventTemplateOptionsSchema.safeParse([base[0], { ...base[1], event_option_visibility: rule }]);
    expect(withRule({ show_hide: 'show if', event_option_name: 'KIND', event_option_values: ['rock'] }).success).toBe(
      true,
    );
    const messages = (r: ReturnType<typeof withRule>) =>
      r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    expect(
      messages(withRule({ show_hide: 'show if', event_option_name: 'Depth', event_option_values: ['x'] })),
    ).toEqual(['1.event_option_visibility.event_option_name: must name another option of this template']);
    expect(
      messages(withRule({ show_hide: 'hide if', event_option_name: 'Rock type', event_option_values: [] })),
    ).toEqual([
      '1.event_option_visibility.event_option_name: must not name its own option',
      '1.event_option_visibility.event_option_values: must contain at least 1 items',
    ]);
  });
});

describe('button colours', () => {
  it('normalises hex colours and picks a label colour with at least 4.5:1 contrast', () => {
    expect(normalizeHexColor('#AbC')).toBe('#aabbcc');
    expect(normalizeHexColor('red')).toBeNull();
    for (const bg of ['#000000', '#ffffff', '#777777', '#2a9fd6', '#ffcc00', '#cc0000', '#123456', '#76b900']) {
      expect(contrastRatio(bg, buttonTextColor(bg)), bg).toBeGreaterThanOrEqual(4.5);
    }
    expect(buttonTextColor('#ffcc00')).toBe('#000000');
    expect(buttonTextColor('#123456')).toBe('#ffffff');
  });

  it('knows the eight Bootstrap variants and nothing else as a variant', () => {
    expect(buttonVariants).toHaveLength(8);
    for (const v of buttonVariants) expect(buttonVariantOf(v)).toBe(v);
    for (const bad of ['Primary', 'link', 'primary ', 'btn-primary', '', null, undefined, 'toString'])
      expect(buttonVariantOf(bad)).toBeNull();
    expect(isButtonColor('warning')).toBe(true);
    expect(isButtonColor('#0a7d3c')).toBe(true);
    expect(isButtonColor('red')).toBe(false);
    expect(isButtonColor('#12345')).toBe(false);
    expect(isButtonColor('primary;background:url(x)')).toBe(false);
  });
});
