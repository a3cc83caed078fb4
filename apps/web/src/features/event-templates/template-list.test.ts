import { afterEach, describe, expect, it, vi } from 'vitest';
import { createEventTemplateSchema } from '@bathylog/shared';
import { importTemplateRecord, matchesTemplateSearch, templateImportBody } from './template-list';

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

describe('template import', () => {
  afterEach(() => vi.unstubAllGlobals());
  const record = { id: '5dac67d6a78d2f4ec028551e', event_name: 'Cruise Status', event_value: 'CRUISE' };
  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

  /** Answers GET with `stored` (200) or 404, POST with 201; returns what was asked. */
  function serve(stored: boolean) {
    const asked: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init?: RequestInit) => {
        const method = init?.method ?? 'GET';
        asked.push(`${method} ${String(url).replace(/^.*\/api\/v1\//, '')}`);
        if (method === 'GET')
          return stored
            ? json(200, { ...record, template_categories: [], event_options: [] })
            : json(404, { statusCode: 404, error: 'Not Found', message: 'No record found' });
        return json(201, { insertedId: record.id });
      }),
    );
    return asked;
  }

  it('asks whether the id exists first, and skips a stored one without posting it', async () => {
    const asked = serve(true);
    expect(await importTemplateRecord(record)).toBe('skipped');
    expect(asked).toEqual([`GET event_templates/${record.id}`]);
  });

  it('posts a template whose id is not stored', async () => {
    const asked = serve(false);
    expect(await importTemplateRecord(record)).toBe('imported');
    expect(asked).toEqual([`GET event_templates/${record.id}`, 'POST event_templates']);
  });
});
