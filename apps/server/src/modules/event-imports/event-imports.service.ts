import {
  formatZodError,
  importedEventSchema,
  newObjectId,
  normalizeOptionName,
  type EventImportProgress,
  type EventImportResult,
  type ImportedEvent,
} from '@bathylog/shared';
import type { Database } from '../../db/database.js';
import type { AuthContext } from '../../plugins/auth.js';
import { recordChange } from '../audit/audit.js';
import { EventImportsRepository, type ImportRows } from './event-imports.repository.js';

export interface ImportOptions {
  /** Called after every committed batch (and once at the end) with the counts so far. */
  onProgress?: (progress: EventImportProgress) => void;
  /** Who imports (a route's caller), or null for the command line. */
  actor?: AuthContext | null;
  /** Events per transaction. Default 5,000. */
  batchSize?: number;
  /** How many refused events are described in the result. Default 100. */
  maxErrors?: number;
}

const defaultBatch = 5000;

/**
 * Bulk import of events with their aux data (docs/performance.md#bulk-import), for the command line
 * and any route: reads `source` (event export objects, see `importedEventSchema`) once, validates
 * each, and stores them in large transactions with multi-row inserts; the search index is
 * maintained as for any insert. An event whose id is already stored is skipped, so importing the
 * same file twice changes nothing; an invalid event is refused alone (its position and reason in
 * the result). One audit row records the import. No realtime publish: an import is history, not
 * live logging.
 */
export async function importEvents(
  database: Database,
  source: AsyncIterable<unknown> | Iterable<unknown>,
  opts: ImportOptions = {},
): Promise<EventImportResult> {
  const batchSize = opts.batchSize ?? defaultBatch;
  const maxErrors = opts.maxErrors ?? 100;
  const result: EventImportResult = { read: 0, imported: 0, skipped: 0, failed: 0, errors: [] };
  let batch: ImportedEvent[] = [];

  const flush = async () => {
    if (batch.length === 0) return;
    const rows = toRows(batch, opts.actor?.user.id ?? null);
    batch = [];
    const stored = await database.db.transaction().execute((trx) => new EventImportsRepository(trx).insertNew(rows));
    result.imported += stored;
    result.skipped += rows.events.length - stored;
    opts.onProgress?.(progressOf(result));
  };

  for await (const item of source) {
    const index = result.read++;
    const parsed = importedEventSchema.safeParse(item);
    if (!parsed.success) {
      result.failed++;
      if (result.errors.length < maxErrors) result.errors.push({ index, message: formatZodError(parsed.error) });
      continue;
    }
    batch.push(parsed.data);
    if (batch.length >= batchSize) await flush();
  }
  await flush();
  if (result.imported > 0) {
    await recordChange(database.db, opts.actor ?? null, {
      action: 'import',
      record_type: 'event',
      record_id: null,
      new_value: { events: result.imported, skipped: result.skipped, failed: result.failed },
    });
  }
  opts.onProgress?.(progressOf(result));
  return result;
}

const progressOf = (r: EventImportResult): EventImportProgress => ({
  read: r.read,
  imported: r.imported,
  skipped: r.skipped,
  failed: r.failed,
});

/**
 * Events of a batch as table rows; a repeated id within the batch keeps its first event. The
 * importing caller is recorded as their creator (the command line: nobody, so only admins and
 * event managers change them), whatever author label the file gives.
 */
function toRows(events: readonly ImportedEvent[], createdBy: string | null): ImportRows {
  const out: ImportRows = { events: [], aux: [] };
  const seen = new Set<string>();
  for (const e of events) {
    if (seen.has(e.id)) continue;
    seen.add(e.id);
    out.events.push({
      id: e.id,
      ts: e.ts,
      event_author: e.event_author,
      event_value: e.event_value,
      event_options: JSON.stringify(
        e.event_options.map((o) => ({
          event_option_name: normalizeOptionName(o.event_option_name),
          event_option_value: o.event_option_value,
        })),
      ),
      event_free_text: e.event_free_text,
      created_by: createdBy,
    });
    for (const a of e.aux_data) {
      out.aux.push({
        id: newObjectId(),
        event_id: e.id,
        data_source: a.data_source,
        data_array: JSON.stringify(a.data_array),
      });
    }
  }
  return out;
}
