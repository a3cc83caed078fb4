import { recordMessages } from '@bathylog/shared';
import { api, isApiError } from '../../../api/client';
import type { RecordKind } from '../../../api/records';
import type { ImportOutcome } from '../../../components/import-dialog';

/**
 * One record of a cruise or lowering import file (docs/screens.md#record-import): a record
 * already there (found by id, or refused as a duplicate id) is skipped; otherwise it is created
 * with its id, identifier, times, location, tags, hidden flag and additional meta. Other failures
 * are thrown for the dialog's error log.
 */
export async function importRecord(kind: RecordKind, record: Record<string, unknown>): Promise<ImportOutcome> {
  const id = typeof record.id === 'string' ? record.id : undefined;
  if (id) {
    try {
      await api.get(`${kind}s/${id}`);
      return 'skipped';
    } catch (err) {
      if (!isApiError(err, 404)) throw err;
    }
  }
  const meta = { ...((record[`${kind}_additional_meta`] as Record<string, unknown> | undefined) ?? {}) };
  // File names belong to the other installation's folder; here they would be upload ids.
  delete meta[`${kind}_files`];
  const body: Record<string, unknown> = {
    ...(id ? { id } : {}),
    [`${kind}_id`]: record[`${kind}_id`],
    start_ts: record.start_ts,
    stop_ts: record.stop_ts,
    [`${kind}_location`]: record[`${kind}_location`] ?? '',
    [`${kind}_tags`]: record[`${kind}_tags`] ?? [],
    [`${kind}_hidden`]: record[`${kind}_hidden`] ?? false,
    [`${kind}_additional_meta`]: meta,
  };
  try {
    await api.post(`${kind}s`, body);
    return 'imported';
  } catch (err) {
    if (isApiError(err, 400) && err.message === recordMessages.duplicateId) return 'skipped';
    throw err;
  }
}
