import { followsShips } from '../../origins/record-origins.js';
import { sql, type RawBuilder } from 'kysely';
import {
  EventCsvWriter,
  csvCell,
  eventCsvColumnSequence,
  eventCsvHeader,
  eventsToCsv,
  messages,
  toIso,
  type CsvEventOption,
  type EventExportQuery,
  type EventGetQuery,
} from '@bathylog/shared';
import type { AppContext } from '../../context.js';
import { AppError } from '../../lib/app-error.js';
import { parseJson } from '../../lib/json.js';
import type { AuthContext } from '../../plugins/auth.js';
import type { EventAccess } from '../access/event-access.js';
import { EventAuxDataRepository } from '../event-aux-data/event-aux-data.repository.js';
import { CompletenessService } from '../completeness/completeness.service.js';
import {
  csvContentType,
  csvEvent,
  csvLinesOutput,
  eventCsvOutput,
  eventJson,
  jsonArrayOutput,
  jsonContentType,
  jsonRunsOutput,
  mapChunks,
  recordIdsJson,
  type ChunkSource,
  type RunSource,
  type EventItem,
  type Output,
  type RecordIdFields,
} from '../events/event-output.js';
import { EventQueries, keysetWalk, pageMax, type EventScope, type Keyset } from '../events/event-queries.js';
import type { ResolvedFilter } from '../events/event-search.js';
import { EventsRepository } from '../events/events.repository.js';
import { RecordIds } from '../events/record-windows.repository.js';
import { EventExportsRepository } from './event-exports.repository.js';
import { preferRenav } from './renav.js';
import { withVideoAux, withVideoJson } from '../../media/video-columns.js';
import type { VideoLinks } from '../../media/video-index.js';

const notFound = (scope: EventScope) =>
  new AppError('NOT_FOUND', scope.kind === 'all' ? messages.noRecords : `${scope.kind} not found for that id`);

/** Events per query of the fast path (a JSON chunk is about 1.5 MB of text). */
const chunkSize = 2000;
/** Beyond this many stored CSV shapes the header is not probed shape by shape; the rows are read twice. */
const shapeProbeCap = 5000;

type IdsAt = (ts: number) => RecordIdFields;
const noIds: IdsAt = () => ({});

/**
 * Event exports (docs/wire.md#event-exports): events with their aux data embedded, oldest first, as JSON or
 * event CSV. Streamed in keyset chunks, so a cruise of any size is written without being held in
 * memory, and with no row cap. Paging is offset-then-limit (Sealog applied the limit first); a
 * datasource filter (exact source) keeps format and add_record_ids working (Sealog ignored them).
 *
 * Fast path (docs/performance.md#event-exports-one-read-written-by-the-database): for filters the
 * database answers alone (no per-row text check) and more than a page, one query per chunk gives
 * each event with its aux records (JSON text built by the database); a CSV of a whole match takes
 * its header from the stored column shapes (migration 011), so the rows are read once. Otherwise
 * rows are read as before. Both give the same bytes (tests compare them).
 */
export class EventExportsService {
  private readonly queries: EventQueries;

  constructor(private readonly ctx: AppContext) {
    this.queries = new EventQueries(ctx);
  }

  private get repo() {
    const { db, dialect, readWorker } = this.ctx.database;
    return new EventExportsRepository(db, dialect, readWorker);
  }

  async list(
    caller: AuthContext,
    query: EventExportQuery,
    scope: EventScope,
    access: EventAccess,
    video?: VideoLinks,
  ): Promise<Output> {
    const window = await this.queries.window(caller, scope, notFound(scope));
    const completeness = query.completeness === 'true' || query.completeness === 'incomplete';
    const filterQuery = {
      ...query,
      completeness: query.completeness === 'incomplete' ? ('incomplete' as const) : undefined,
    };
    const resolved = await this.queries.resolve(filterQuery, window, 'exact', access, loweringOf(scope));
    const recordIds = await this.queries.recordIds(query.add_record_ids);
    const page = { offset: query.offset ?? 0, limit: query.limit };
    // With recordings in the window every row carries its video (docs/video.md#exports): row by row.
    const index = video ? await video.within(resolved.filter.lo, resolved.filter.hi) : null;
    const videoIndex = index && !index.empty ? index : null;
    if (query.use_renav || completeness || videoIndex) {
      // Row by row: which navigation an event exports depends on its own aux records; its
      // completeness is judged per chunk.
      const rows = this.queries.rows(resolved, { order: 'asc', offset: query.offset, limit: query.limit });
      const renav = this.ctx.config.renav;
      let items = this.queries.items(rows, { aux: true, ids: recordIds, origins: query.format !== 'csv' });
      if (query.use_renav) items = mapChunks(items, (i) => preferRenav(i, renav));
      const linksOf = (i: EventItem) => videoIndex?.at(Number(i.row.ts)) ?? [];
      const csvOf = (i: EventItem) => (videoIndex ? withVideoAux(i, linksOf(i)) : i);
      const jsonOf = (i: EventItem, json: string) => (videoIndex ? withVideoJson(json, linksOf(i)) : json);
      if (!completeness) {
        return query.format === 'csv'
          ? eventCsvOutput(mapChunks(items, csvOf))
          : jsonArrayOutput(mapChunks(items, (i) => jsonOf(i, eventJson(i))));
      }
      const judged = withCompleteness(new CompletenessService(this.ctx), items);
      return query.format === 'csv'
        ? eventCsvOutput(mapChunks(judged, (i) => csvOf(completenessAsAux(i))))
        : jsonArrayOutput(mapChunks(judged, (i) => jsonOf(i, completenessJson(i))));
    }
    // On a shore, JSON marks the events copied from a ship: by the items path, which looks up their origins.
    const fast =
      !this.queries.search.rowCheck(resolved) &&
      !(page.limit !== undefined && page.limit <= pageMax) &&
      (query.format === 'csv' || !(await followsShips(this.ctx)));
    if (fast && query.format !== 'csv') return jsonRunsOutput(this.jsonRuns(resolved, page, recordIds));
    if (fast && page.offset === 0 && page.limit === undefined) {
      const header = await this.csvHeader(resolved, recordIds);
      if (header) return csvLinesOutput(header, this.csvLines(resolved, header, recordIds));
    }
    const rows = this.queries.rows(resolved, { order: 'asc', offset: query.offset, limit: query.limit });
    const items = this.queries.items(rows, { aux: true, ids: recordIds, origins: query.format !== 'csv' });
    return query.format === 'csv' ? eventCsvOutput(items) : jsonArrayOutput(mapChunks(items, eventJson));
  }

  /** The fast path's keyset walk: chunks of rows read by `read` (offset on the first only). */
  private walk<T extends Keyset>(
    resolved: ResolvedFilter,
    page: { offset: number; limit: number | undefined },
    read: (where: RawBuilder<boolean>, offset: number, limit: number) => Promise<T[]>,
  ): ChunkSource<T> {
    if (resolved.none) return async function* () {};
    const search = this.queries.search;
    return keysetWalk(
      page,
      chunkSize,
      async (after, skip, take) => {
        const rows = await read(search.keysetWhere(resolved, after), skip, take);
        return { out: rows, n: rows.length, ...(rows.length ? { last: rows[rows.length - 1]! } : {}) };
      },
      { prefetch: true },
    );
  }

  /** One event the slow way (stored text the fast path does not embed as is), as before. */
  private async item(id: string, ids: RecordIdFields): Promise<EventItem> {
    const db = this.ctx.database.db;
    const row = (await new EventsRepository(db).findById(id))!;
    return { row, aux: await new EventAuxDataRepository(db).listByEventIds([id]), ids };
  }

  /**
   * The JSON runs of the fast path: each chunk written wholly by the database when it can (window
   * within years 0000–9999, a bounded number of record windows), else, or for a chunk with a row
   * the database does not write as is, by `jsonLines` row by row.
   */
  private jsonRuns(
    resolved: ResolvedFilter,
    page: { offset: number; limit: number | undefined },
    recordIds: RecordIds | null,
  ): RunSource {
    const { lo, hi } = resolved.filter;
    const idsCase = recordIdsCase(recordIds, lo, hi);
    const byRow = this.jsonLines(resolved, page, recordIds);
    if (lo < isoMin || hi > isoMax || !idsCase) {
      return async function* () {
        for await (const lines of byRow()) if (lines.length > 0) yield lines.join(',');
      };
    }
    const repo = this.repo;
    const search = this.queries.search;
    const rowsOf = (where: RawBuilder<boolean>, offset: number, limit: number) =>
      this.jsonLines(resolved, { offset, limit }, recordIds, where);
    if (resolved.none) return async function* () {};
    const runs = keysetWalk(
      page,
      chunkSize,
      async (after, skip, take) => {
        const where = search.keysetWhere(resolved, after);
        const chunk = await repo.jsonText(where, skip, take, idsCase);
        const out: Array<string | Buffer> = [];
        if (chunk.slow === 0 && chunk.body !== null) out.push(chunk.body);
        else for await (const lines of rowsOf(where, skip, take)()) if (lines.length > 0) out.push(lines.join(','));
        return { out, n: chunk.n, last: { ts: chunk.lastTs, id: chunk.lastId } };
      },
      { prefetch: true },
    );
    return async function* () {
      for await (const out of runs()) yield* out;
    };
  }

  /** JSON lines made in Node from the database's parts; `only`: just the one chunk at these conditions. */
  private jsonLines(
    resolved: ResolvedFilter,
    page: { offset: number; limit: number | undefined },
    recordIds: RecordIds | null,
    only?: RawBuilder<boolean>,
  ): ChunkSource<string> {
    const repo = this.repo;
    const chunks = only
      ? async function* () {
          yield await repo.jsonChunk(only, page.offset, page.limit!);
        }
      : this.walk(resolved, page, (where, offset, limit) => repo.jsonChunk(where, offset, limit));
    const item = (id: string, ids: RecordIdFields) => this.item(id, ids);
    return async function* () {
      const idsAt = recordIds ? recordIds.cursor() : noIds;
      let lastIds: RecordIdFields | null = null;
      let idsJson = '';
      for await (const rows of chunks()) {
        const lines: string[] = new Array<string>(rows.length);
        for (let i = 0; i < rows.length; i++) {
          const r = rows[i]!;
          const ids = idsAt(r.ts);
          if (ids !== lastIds) {
            lastIds = ids;
            idsJson = recordIdsJson(ids);
          }
          lines[i] =
            r.mid === null || (r.aux !== null && r.aux[0] !== '1')
              ? eventJson(await item(r.id, ids))
              : `${r.head}${toIso(r.ts)}${r.mid},"aux_data":[${r.aux === null ? '' : r.aux.slice(1)}],"id":${r.idq}${idsJson}}`;
        }
        yield lines;
      }
    };
  }

  private csvLines(
    resolved: ResolvedFilter,
    header: readonly string[],
    recordIds: RecordIds | null,
  ): ChunkSource<string> {
    const repo = this.repo;
    const chunks = this.walk(resolved, { offset: 0, limit: undefined }, (where, offset, limit) =>
      repo.csvChunk(where, offset, limit),
    );
    const item = (id: string, ids: RecordIdFields) => this.item(id, ids);
    const writer = new EventCsvWriter(header);
    return async function* () {
      const idsAt = recordIds ? recordIds.cursor() : noIds;
      for await (const rows of chunks()) {
        const lines: string[] = new Array<string>(rows.length);
        for (let i = 0; i < rows.length; i++) {
          const r = rows[i]!;
          const ids = idsAt(r.ts);
          const parts = storedParts(r.parts);
          lines[i] =
            parts && r.vaf !== null
              ? writer.lineOfCells(
                  {
                    id: r.idc,
                    ts: r.tsc ?? csvCell(toIso(r.ts)),
                    valueAuthorFreeText: r.vaf,
                    cruiseId: csvCell(ids.cruise_id),
                    loweringId: csvCell(ids.lowering_id),
                  },
                  parts[0] as CsvEventOption[],
                  parts,
                  1,
                )
              : writer.line(csvEvent(await item(r.id, ids)));
        }
        yield lines;
      }
    };
  }

  /**
   * The CSV header of a whole match from the stored column shapes of its records (migration 011),
   * with the record-id columns some matching event has; null when it cannot be told that way:
   * too many shapes, or an aux source with a dot (or named `event_option`), whose columns can
   * collide with another record's so that an event's columns are not the sum of its records'.
   */
  private async csvHeader(resolved: ResolvedFilter, recordIds: RecordIds | null): Promise<string[] | null> {
    if (resolved.none || (await this.repo.shapeCount()) > shapeProbeCap) return null;
    const search = this.queries.search;
    const shapes = await this.repo.shapesWithin(search.keysetWhere(resolved), resolved.filter.lo, resolved.filter.hi);
    const columns = new Set<string>();
    const none = { options: [], aux: [], cruiseId: false, loweringId: false };
    for (const shape of shapes) {
      const names = parseJson<unknown>(shape.slice(1), null);
      if (shape[0] === 'o' && Array.isArray(names)) {
        for (const c of eventCsvColumnSequence({ ...none, options: names as string[] })) columns.add(c);
      } else if (shape[0] === 'a' && Array.isArray(names) && Array.isArray(names[1])) {
        const source = String(names[0]);
        if (source.includes('.') || source === 'event_option') return null;
        for (const c of eventCsvColumnSequence({ ...none, aux: [{ source, names: names[1] as string[] }] }))
          columns.add(c);
      } else return null;
    }
    if (recordIds && (await search.anyWithin(resolved, recordIds.windows('cruise')))) columns.add('cruise_id');
    if (recordIds && (await search.anyWithin(resolved, recordIds.windows('lowering')))) columns.add('lowering_id');
    return eventCsvHeader(columns);
  }

  async get(id: string, query: EventGetQuery, access: EventAccess, video?: VideoLinks): Promise<Output> {
    const db = this.ctx.database.db;
    const row = await new EventsRepository(db).findById(id);
    // An event the caller may not see is answered as one that does not exist.
    if (!row || !(await access.maySeeEvent(db, row))) throw new AppError('NOT_FOUND', messages.noRecords);
    const aux = await new EventAuxDataRepository(db).listByEventIds([id]);
    const item = { row, aux, ids: query.add_record_ids ? (await RecordIds.load(db)).for(row.ts) : {} };
    const index = video ? await video.within(row.ts, row.ts) : null;
    const links = index && !index.empty ? index.at(row.ts) : null;
    if (query.format === 'csv') {
      return { contentType: csvContentType, body: eventsToCsv([csvEvent(links ? withVideoAux(item, links) : item)]) };
    }
    return { contentType: jsonContentType, body: links ? withVideoJson(eventJson(item), links) : eventJson(item) };
  }
}

/** The window in which the databases' ISO times equal JavaScript's (years 0000–9999). */
const isoMin = -62_167_219_200_000; // 0000-01-01T00:00:00.000Z
const isoMax = 253_402_300_799_999; // 9999-12-31T23:59:59.999Z

/** Beyond this many record-window edges in an export's window, record ids are added in Node. */
const recordEdgeCap = 512;

/**
 * The record-id members of an event's JSON as an SQL expression over `e.ts` (a binary tree of
 * CASEs over the record-window edges within [lo, hi]), or null when there are too many edges.
 */
function recordIdsCase(recordIds: RecordIds | null, lo: number, hi: number): RawBuilder<string> | null {
  if (!recordIds) return sql<string>`''`;
  const at = recordIds.cursor();
  const edges = recordIds.edges().filter((edge) => edge > lo && edge <= hi);
  if (edges.length > recordEdgeCap) return null;
  const starts = [lo, ...edges];
  const tree = (from: number, to: number): RawBuilder<string> => {
    if (to - from === 1) return sql<string>`${recordIdsJson(at(starts[from]!))}`;
    const mid = (from + to) >>> 1;
    return sql<string>`(CASE WHEN e.ts < ${sql.lit(starts[mid]!)} THEN ${tree(from, mid)} ELSE ${tree(mid, to)} END)`;
  };
  return tree(0, starts.length);
}

/**
 * A CSV export row's `[options, source, data, …]`, or null when it does not parse as arrays (the
 * row is then read the slow way, where each stored text falls back on its own, as before).
 */
function storedParts(text: string): unknown[] | null {
  const parts = parseJson<unknown>(text, null);
  if (!Array.isArray(parts) || !Array.isArray(parts[0])) return null;
  for (let i = 2; i < parts.length; i += 2) if (!Array.isArray(parts[i])) return null;
  return parts;
}

/** The lowering a bylowering export reads (its own required aux sources judge completeness). */
function loweringOf(scope: EventScope): string | undefined {
  return scope.kind === 'lowering' ? scope.id : undefined;
}

type JudgedItem = EventItem & { completeness: { state: string; missing: string[]; stale: string[] } };

/** Each chunk's events judged (docs/completeness.md#exports). */
function withCompleteness(service: CompletenessService, source: ChunkSource<EventItem>): ChunkSource<JudgedItem> {
  return async function* () {
    for await (const chunk of source()) {
      const judged = new Map((await service.judgeEvents(chunk.map((i) => i.row.id))).map((j) => [j.id, j]));
      yield chunk.map((item) => {
        const j = judged.get(item.row.id);
        return {
          ...item,
          completeness: { state: j?.state ?? 'complete', missing: j?.missing ?? [], stale: j?.stale ?? [] },
        };
      });
    }
  };
}

/** JSON: the event with a `completeness` field. */
function completenessJson(item: JudgedItem): string {
  const json = eventJson(item);
  return `${json.slice(0, -1)},"completeness":${JSON.stringify(item.completeness)}}`;
}

/** CSV: the judgement as the columns of a `completeness` record (completeness.state_value, .missing_value, .stale_value). */
function completenessAsAux(item: JudgedItem): EventItem {
  const { state, missing, stale } = item.completeness;
  const record = {
    id: '',
    event_id: item.row.id,
    data_source: 'completeness',
    data_array: JSON.stringify([
      { data_name: 'state', data_value: state },
      { data_name: 'missing', data_value: missing.join(',') },
      { data_name: 'stale', data_value: stale.join(',') },
    ]),
  };
  return { row: item.row, aux: [...(item.aux ?? []), record], ids: item.ids };
}
