import { describe, expect, it } from 'vitest';
import { createEventTemplateSchema } from '@bathylog/shared';
import { matchesTemplateSearch, templateImportBody } from './template-list';

describe('template search', () => {
  const t = { event_name: 'CTD Tow-Yo', event_value: 'CTD', template_categories: ['equipment', 'water column'] };
  it('matches the name, the value and the categories, ignoring case', () => {
    expect(matchesTemplateSearch(t, 'tow-yo')).toBe(true);
    expect(matchesTemplateSearch(t, 'ctd')).toBe(true);
    expect(matchesTemplateSearch(t, 'WATER')).toBe(true);
    expect(matchesTemplateSearch(t, ' ')).toBe(true);
    expect(matchesTemplateSearch(t, 'biology')).toBe(false);
  });
});

describe('template import body', () => {
  it('keeps the template fields and drops anything else', () => {
    const body = templateImportBody({
      id: '5dac67d6a78d2f4ec028551e',
      event_name: 'Cruise Status',
      event_value: 'CRUISE',
      event_free_text_required: false,
      system_template: true,
      template_categories: ['cruise'],
      disabled: false,
      admin_only: true,
      exported_at: 'yesterday',
      event_options: [
        {
          event_option_name: 'Status',
          event_option_type: 'dropdown',
          event_option_values: ['Start of Cruise'],
          event_option_allow_freeform: false,
          event_option_required: true,
          note: 'x',
        },
      ],
    });
    expect(body).not.toHaveProperty('exported_at');
    expect((body.event_options as object[])[0]).not.toHaveProperty('note');
    expect(createEventTemplateSchema.safeParse(body).success).toBe(true);
  });
});

describe('template import of Sealog 2.4 fields', () => {
  it("keeps the button colour and the options' visibility rules", () => {
    const rule = { show_hide: 'show if', event_option_name: 'Kind', event_option_values: ['rock'] };
    const body = templateImportBody({
      event_name: 'Rock',
      event_value: 'ROCK',
      event_free_text_required: false,
      system_template: false,
      event_button_color: '#ffcc00',
      event_options: [
        {
          event_option_name: 'Kind',
          event_option_type: 'radio buttons',
          event_option_values: ['rock', 'fish'],
          event_option_allow_freeform: false,
          event_option_required: false,
        },
        {
          event_option_name: 'Rock type',
          event_option_type: 'text',
          event_option_values: [],
          event_option_allow_freeform: false,
          event_option_required: true,
          event_option_visibility: rule,
        },
      ],
    });
    expect(body.event_button_color).toBe('#ffcc00');
    expect((body.event_options as Array<Record<string, unknown>>)[1]!.event_option_visibility).toEqual(rule);
    expect(createEventTemplateSchema.safeParse(body).success).toBe(true);
  });
});
