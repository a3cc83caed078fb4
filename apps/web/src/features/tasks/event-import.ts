import { messages } from '@bathylog/shared';
import { isApiError } from '../../api/client';
import { postAuxDataRecord, postEventRecord } from '../../api/event-imports';
import type { ImportOutcome } from '../../components/import-dialog';

type ImportRecord = Record<string, unknown>;

/** Only the fields the call accepts: export files carry more (aux_data, cruise_id, …). */
function pick(record: ImportRecord, keys: readonly string[]): ImportRecord {
  const out: ImportRecord = {};
  for (const key of keys) if (record[key] !== undefined) out[key] = record[key];
  return out;
}

/** The event fields an import creates (those of a Sealog event export). */
export const eventImportFields = [
  'id',
  'ts',
  'event_author',
  'event_value',
  'event_free_text',
  'event_options',
] as const;
export const auxDataImportFields = ['id', 'event_id', 'data_source', 'data_array'] as const;

/**
 * The POST /events body for one record of an event export file: marked not live, so even a file of
 * recent events stays off the consoles (docs/wire.md#live-or-imported).
 */
export function eventImportBody(record: ImportRecord): ImportRecord {
  return { ...pick(record, eventImportFields), publish: false };
}

/** The POST /event_aux_data body for one record of an aux-data export file. */
export function auxDataImportBody(record: ImportRecord): ImportRecord {
  return pick(record, auxDataImportFields);
}

/**
 * Events (docs/screens.md#event-and-aux-data-import): a 400 "duplicate event ID" is an event already
 * there, counted as skipped.
 */
export async function importEventRecord(record: ImportRecord): Promise<ImportOutcome> {
  try {
    await postEventRecord(eventImportBody(record));
    return 'imported';
  } catch (err) {
    if (isApiError(err, 400) && err.message === messages.duplicateEvent) return 'skipped';
    throw err;
  }
}

/**
 * Aux data (docs/screens.md#event-and-aux-data-import): every error is logged; a created record counts
 * as imported, a replaced one (the upsert's 204) as updated.
 */
export async function importAuxDataRecord(record: ImportRecord): Promise<ImportOutcome> {
  const result = await postAuxDataRecord(auxDataImportBody(record));
  return result === 'created' ? 'imported' : 'updated';
}
