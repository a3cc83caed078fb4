import { describe, expect, it } from 'vitest';
import { createEventTemplateSchema } from '../schemas/event-templates.js';
import {
  emptyTemplateOption,
  eventTemplateFormSchema,
  isValidCsvList,
  splitCsvList,
  templateFromForm,
  templateToForm,
  type EventTemplateFormValues,
  type EventTemplateOptionFormValues,
} from './event-template-form.js';

const option = (o: Partial<EventTemplateOptionFormValues>): EventTemplateOptionFormValues => ({
  ...emptyTemplateOption(),
  ...o,
});

const form = (o: Partial<EventTemplateFormValues> = {}): EventTemplateFormValues => ({
  ...templateToForm(),
  event_name: 'Fish',
  event_value: 'FISH',
  ...o,
});

/** Field path → message, as the client's forms show them. */
function errors(values: EventTemplateFormValues): Record<string, string> {
  const result = eventTemplateFormSchema.safeParse(values);
  if (result.success) return {};
  return Object.fromEntries(result.error.issues.map((i) => [i.path.join('.'), i.message]));
}

describe('event template form rules', () => {
  it('accepts a complete form', () => {
    expect(errors(form({ template_categories: 'biology, geology' }))).toEqual({});
  });

  it('requires the name and value and limits the name to 32 characters', () => {
    expect(errors(form({ event_name: ' ', event_value: '' }))).toEqual({
      event_name: 'Required',
      event_value: 'Required',
    });
    expect(errors(form({ event_name: 'x'.repeat(32) }))).toEqual({});
    expect(errors(form({ event_name: 'x'.repeat(33) }))).toEqual({ event_name: 'Must be 32 characters or less' });
  });

  it('checks the categories comma list', () => {
    expect(isValidCsvList('')).toBe(true);
    expect(isValidCsvList('a, b ,c')).toBe(true);
    expect(isValidCsvList('"deep sea", biology')).toBe(true);
    for (const bad of ['a,,b', 'a,', ',a', ' , ', '"deep sea, biology', 'biology, geo"logy']) {
      expect(isValidCsvList(bad), bad).toBe(false);
      expect(errors(form({ template_categories: bad }))).toEqual({ template_categories: 'Invalid csv list' });
    }
    expect(splitCsvList(' a , b,, c ')).toEqual(['a', 'b', 'c']);
  });

  it('needs unique option names (ignoring case) and a type', () => {
    const result = errors(
      form({
        event_options: [
          option({ event_option_name: 'Sample ID', event_option_type: 'text' }),
          option({ event_option_name: 'sample id', event_option_type: 'text' }),
          option({ event_option_name: '', event_option_type: '' }),
        ],
      }),
    );
    expect(result).toEqual({
      'event_options.1.event_option_name': 'Option name must be unique',
      'event_options.2.event_option_name': 'Required',
      'event_options.2.event_option_type': 'Required',
    });
  });

  it('needs a value list for choices, and defaults from that list', () => {
    const result = errors(
      form({
        event_options: [
          option({ event_option_name: 'a', event_option_type: 'dropdown', event_option_values: ' ' }),
          option({
            event_option_name: 'b',
            event_option_type: 'radio buttons',
            event_option_values: 'x, y',
            event_option_default_value: 'z',
          }),
          option({
            event_option_name: 'c',
            event_option_type: 'dropdown',
            event_option_values: 'x, y',
            event_option_default_value: 'y',
          }),
          option({
            event_option_name: 'd',
            event_option_type: 'checkboxes',
            event_option_values: 'x, y',
            event_option_default_value: 'x,q',
          }),
          option({
            event_option_name: 'e',
            event_option_type: 'checkboxes',
            event_option_values: 'x, y',
            event_option_default_value: 'y, x',
          }),
          option({ event_option_name: 'f', event_option_type: 'static text', event_option_default_value: '  ' }),
          option({ event_option_name: 'g', event_option_type: 'text' }),
        ],
      }),
    );
    expect(result).toEqual({
      'event_options.0.event_option_values': 'Required',
      'event_options.1.event_option_default_value': 'Value is not in options list',
      'event_options.3.event_option_default_value': 'Value(s) is/are not in options list',
      'event_options.5.event_option_default_value': 'Required',
    });
  });

  it('turns a form into a request body the server schema accepts', () => {
    const body = templateFromForm(
      form({
        event_name: ' Sonar ',
        template_categories: 'Vehicle, SONAR ',
        system_template: false,
        admin_only: true,
        event_options: [
          option({
            event_option_name: 'Which',
            event_option_type: 'checkboxes',
            event_option_values: 'EM124 , EM712',
            event_option_default_value: 'EM124, EM712',
          }),
          option({
            event_option_name: 'Kind',
            event_option_type: 'static text',
            event_option_values: 'ignored',
            event_option_default_value: ' Sonar ',
          }),
        ],
      }),
    );
    expect(body).toEqual({
      event_name: 'Sonar',
      event_value: 'FISH',
      template_categories: ['vehicle', 'sonar'],
      event_free_text_required: false,
      system_template: false,
      admin_only: false,
      disabled: false,
      event_options: [
        {
          event_option_name: 'Which',
          event_option_type: 'checkboxes',
          event_option_values: ['EM124', 'EM712'],
          event_option_default_value: 'EM124,EM712',
          event_option_required: false,
          event_option_allow_freeform: false,
        },
        {
          event_option_name: 'Kind',
          event_option_type: 'static text',
          event_option_values: [],
          event_option_default_value: 'Sonar',
          event_option_required: false,
          event_option_allow_freeform: false,
        },
      ],
    });
    expect(createEventTemplateSchema.safeParse(body).success).toBe(true);
    expect(templateFromForm(form({ system_template: true, admin_only: true })).admin_only).toBe(true);
  });

  it('round-trips a stored template through the form', () => {
    const stored = {
      id: '5dac67d6a78d2f4ec028551e',
      event_name: 'SVP',
      event_value: 'SVP',
      event_free_text_required: true,
      system_template: true,
      template_categories: ['sonar'],
      disabled: false,
      admin_only: true,
      event_options: [
        {
          event_option_name: 'Sent to',
          event_option_type: 'checkboxes' as const,
          event_option_values: ['EM124', 'EM712'],
          event_option_default_value: 'EM124,EM712',
          event_option_required: false,
          event_option_allow_freeform: false,
        },
      ],
    };
    const values = templateToForm(stored);
    expect(values.event_options[0]!.event_option_values).toBe('EM124, EM712');
    expect(errors(values)).toEqual({});
    const { id: _id, ...rest } = stored;
    expect(templateFromForm(values)).toEqual({ ...rest, template_categories: ['sonar'] });
  });
});

describe('button colour and option visibility in the form (Sealog 2.4)', () => {
  const kind = option({
    event_option_name: 'Kind',
    event_option_type: 'radio buttons',
    event_option_values: 'rock, fish',
  });

  it('checks the colour and each rule, with the form messages', () => {
    expect(errors(form({ event_button_color: 'blue' }))).toEqual({
      event_button_color: 'Must be a button style or a hex colour like #1a2b3c',
    });
    expect(errors(form({ event_button_color: '#AbC' }))).toEqual({});
    // The Sealog 2.4.17 clients store Bootstrap variant names; the exact lower-case names only.
    expect(errors(form({ event_button_color: 'success' }))).toEqual({});
    expect(errors(form({ event_button_color: 'Success' }))).toEqual({
      event_button_color: 'Must be a button style or a hex colour like #1a2b3c',
    });
    const ruled = (o: Partial<EventTemplateOptionFormValues>) =>
      errors(form({ event_options: [kind, option({ event_option_name: 'Rock', event_option_type: 'text', ...o })] }));
    expect(ruled({ visibility_mode: 'show if' })).toEqual({
      'event_options.1.visibility_option': 'Required',
      'event_options.1.visibility_values': 'Required',
    });
    expect(ruled({ visibility_mode: 'show if', visibility_option: 'Rock', visibility_values: 'a,,b' })).toEqual({
      'event_options.1.visibility_option': 'Must be another option of this template',
      'event_options.1.visibility_values': 'Invalid csv list',
    });
    expect(ruled({ visibility_mode: 'hide if', visibility_option: 'Kind', visibility_values: 'rock' })).toEqual({});
  });

  it('round-trips the colour and the rule between the template and the form', () => {
    const values = form({
      event_button_color: '#ffcc00',
      event_options: [
        kind,
        option({
          event_option_name: 'Rock',
          event_option_type: 'text',
          visibility_mode: 'show if',
          visibility_option: 'Kind',
          visibility_values: 'rock, fish',
        }),
      ],
    });
    const body = templateFromForm(values);
    expect(body.event_button_color).toBe('#ffcc00');
    expect(body.event_options?.[1]?.event_option_visibility).toEqual({
      show_hide: 'show if',
      event_option_name: 'Kind',
      event_option_values: ['rock', 'fish'],
    });
    expect(body.event_options?.[0]).not.toHaveProperty('event_option_visibility');
    expect(createEventTemplateSchema.safeParse(body).success).toBe(true);
    expect(templateToForm({ ...body, id: 'x' })).toEqual(values);
    expect(templateFromForm(form())).not.toHaveProperty('event_button_color');
  });
});
