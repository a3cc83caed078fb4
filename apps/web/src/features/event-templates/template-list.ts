import { messages, type EventTemplate } from '@bathylog/shared';
import { createEventTemplate, eventTemplateExists } from '../../api/event-templates';
import { isApiError } from '../../api/client';
import type { ImportOutcome } from '../../components/import-dialog';

/**
 * Case-insensitive match on the button name, the event value and the categories
 * (docs/screens.md#event-templates).
 */
export function matchesTemplateSearch(
  template: Pick<EventTemplate, 'event_name' | 'event_value' | 'template_categories'>,
  search: string,
): boolean {
  const needle = search.trim().toLowerCase();
  if (needle === '') return true;
  return [template.event_name, template.event_value, ...template.template_categories].some((v) =>
    v.toLowerCase().includes(needle),
  );
}

const templateKeys = [
  'id',
  'event_name',
  'event_value',
  'event_free_text_required',
  'system_template',
  'template_categories',
  'template_style',
  'event_button_color',
  'disabled',
  'admin_only',
  'event_options',
] as const;

const optionKeys = [
  'event_option_name',
  'event_option_type',
  'event_option_default_value',
  'event_option_values',
  'event_option_allow_freeform',
  'event_option_required',
  'event_option_visibility',
  'event_option_taxon',
] as const;

function pick(record: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of keys) if (record[key] !== undefined) out[key] = record[key];
  return out;
}

/** The POST body for one record of a template export file: the fields a template has, no others. */
export function templateImportBody(record: Record<string, unknown>): Record<string, unknown> {
  const body = pick(record, templateKeys);
  if (Array.isArray(record.event_options)) {
    body.event_options = record.event_options.map((o: unknown) =>
      o && typeof o === 'object' ? pick(o as Record<string, unknown>, optionKeys) : o,
    );
  }
  return body;
}

/**
 * Template import (docs/screens.md#template-import): a record whose id is already stored is
 * skipped without being posted; one the server still finds a duplicate of ("duplicate template",
 * stored in the meantime) is skipped too.
 */
export async function importTemplateRecord(record: Record<string, unknown>): Promise<ImportOutcome> {
  if (typeof record.id === 'string' && record.id !== '' && (await eventTemplateExists(record.id))) return 'skipped';
  try {
    await createEventTemplate(templateImportBody(record));
    return 'imported';
  } catch (err) {
    if (isApiError(err, 400) && err.message === messages.duplicateTemplate) return 'skipped';
    throw err;
  }
}
