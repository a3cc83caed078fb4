import { eventsToCsv, messages, type EventExportQuery, type EventGetQuery } from '@bathylog/shared';
import type { AppContext } from '../../context.js';
import { AppError } from '../../lib/app-error.js';
import type { AuthContext } from '../../plugins/auth.js';
import { EventAuxDataRepository } from '../event-aux-data/event-aux-data.repository.js';
import {
  csvContentType,
  csvEvent,
  eventCsvOutput,
  eventJson,
  jsonArrayOutput,
  jsonContentType,
  mapChunks,
  type Output,
  type RecordIdFields,
} from '../events/event-output.js';
import { EventQueries, type EventScope } from '../events/event-queries.js';
import type { ResolvedFilter } from '../events/event-search.js';
import { EventsRepository } from '../events/events.repository.js';
import { RecordIds } from '../events/record-windows.repository.js';

const notFound = (scope: EventScope) =>
  new AppError('NOT_FOUND', scope.kind === 'all' ? messages.noRecords : `${scope.kind} not found for that id`);

/**
 * Event exports (reference §5.8): events with their aux data embedded, oldest first, as JSON or
 * event CSV. Streamed in keyset chunks, so a cruise of any size is written without being held in
 * memory, and with no row cap. Paging is offset-then-limit (Sealog applied the limit first, §12
 * item 8); a datasource filter (exact source) keeps format and add_record_ids working (§12 item 9).
 */
export class EventExportsService {
  private readonly queries: EventQueries;

  constructor(private readonly ctx: AppContext) {
    this.queries = new EventQueries(ctx);
  }

  async list(caller: AuthContext, query: EventExportQuery, scope: EventScope): Promise<Output> {
    const window = await this.queries.window(caller, scope, notFound(scope));
    const resolved = await this.queries.resolve(query, window, 'exact');
    const rows = this.queries.rows(resolved, { order: 'asc', offset: query.offset, limit: query.limit });
    const recordIds = await this.queries.recordIds(query.add_record_ids);
    const items = this.queries.items(rows, { aux: true, ids: recordIds });
    if (query.format !== 'csv') return jsonArrayOutput(mapChunks(items, eventJson));
    // The whole match: the database names the columns, and the rows are read once.
    const whole = !query.offset && query.limit === undefined;
    return eventCsvOutput(items, whole ? await this.knownColumns(resolved, recordIds) : null);
  }

  /** What an event CSV header needs, asked of the database: column shapes, record-id columns. */
  private async knownColumns(resolved: ResolvedFilter, recordIds: RecordIds | null) {
    const search = this.queries.search;
    const shapes = await search.csvShapes(resolved);
    if (!shapes) return null;
    const ids: RecordIdFields = {};
    if (recordIds && (await search.anyWithin(resolved, recordIds.windows('cruise')))) ids.cruise_id = '';
    if (recordIds && (await search.anyWithin(resolved, recordIds.windows('lowering')))) ids.lowering_id = '';
    return { shapes, ids };
  }

  async get(id: string, query: EventGetQuery): Promise<Output> {
    const db = this.ctx.database.db;
    const row = await new EventsRepository(db).findById(id);
    if (!row) throw new AppError('NOT_FOUND', messages.noRecords);
    const aux = await new EventAuxDataRepository(db).listByEventIds([id]);
    const item = { row, aux, ids: query.add_record_ids ? (await RecordIds.load(db)).for(row.ts) : {} };
    if (query.format === 'csv') return { contentType: csvContentType, body: eventsToCsv([csvEvent(item)]) };
    return { contentType: jsonContentType, body: eventJson(item) };
  }
}
