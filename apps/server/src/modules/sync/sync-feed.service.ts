import type { SyncChange, SyncChangesPage } from '@bathylog/shared';
import { sql, type Kysely } from 'kysely';
import type { AppContext } from '../../context.js';
import type { DB } from '../../db/schema.js';
import { badRequest } from '../../lib/app-error.js';
import { parseJson } from '../../lib/json.js';
import { visibleEvents } from '../access/event-access.js';
import type { FeedReader } from './feed-reader.js';
import { allFilePaths, baseName, fileRecord, ownedFilePath } from './sync-files.js';
import { feedStart, SyncFeedRepository, type FeedAuditRow, type FeedPosition } from './sync-feed.repository.js';
import { isTableType, snapshotOrder, syncTables, type TableRecordType } from './sync-records.js';
import { proxyFileRecord, recordingChanges, recordingFeedRecord } from './sync-recordings.js';

/**
 * Where a follower is. `stream`: after a position of the audit trail. `snapshot`: copying the
 * tables (types `type`..`last` of the snapshot order, keyset by id or path after `key`), then
 * resuming the stream at `resume`: a first follow starts so, and so does an import, which the
 * audit trail records as one row without ids (docs/ship-to-shore.md#the-cursor).
 */
type Cursor =
  | { kind: 'stream'; at: FeedPosition }
  | { kind: 'snapshot'; resume: FeedPosition; type: number; last: number; key: string };

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64url');
const unb64 = (s: string) => Buffer.from(s, 'base64url').toString('utf8');

export function encodeCursor(c: Cursor): string {
  return c.kind === 'stream'
    ? `c.${c.at.xid}.${c.at.seq}`
    : `s.${c.resume.xid}.${c.resume.seq}.${c.type}.${c.last}.${b64(c.key)}`;
}

export function decodeCursor(raw: string | undefined): Cursor {
  if (raw === undefined || raw === '' || raw === '0') {
    return { kind: 'snapshot', resume: feedStart, type: 0, last: snapshotOrder.length - 1, key: '' };
  }
  const parts = raw.split('.');
  // Positions are what a feed handed out: a transaction id (PostgreSQL's xid8, below 2^64) and an
  // audit sequence number (a bigint JavaScript counts exactly); anything larger is not a cursor.
  const num = (s: string | undefined, max: bigint) =>
    s !== undefined && /^\d{1,20}$/.test(s) && BigInt(s) <= max ? s : null;
  const xid = (s: string | undefined) => num(s, 2n ** 64n - 1n);
  const count = (s: string | undefined) => num(s, BigInt(Number.MAX_SAFE_INTEGER));
  if (parts[0] === 'c' && parts.length === 3 && xid(parts[1]) && count(parts[2])) {
    return { kind: 'stream', at: { xid: parts[1]!, seq: Number(parts[2]) } };
  }
  if (
    parts[0] === 's' &&
    parts.length === 6 &&
    xid(parts[1]) &&
    count(parts[2]) &&
    count(parts[3]) &&
    count(parts[4])
  ) {
    const type = Number(parts[3]);
    const last = Number(parts[4]);
    if (type < snapshotOrder.length && last < snapshotOrder.length && /^[A-Za-z0-9_-]*$/.test(parts[5]!)) {
      return { kind: 'snapshot', resume: { xid: parts[1]!, seq: Number(parts[2]) }, type, last, key: unb64(parts[5]!) };
    }
  }
  throw badRequest(`Invalid cursor: ${raw.slice(0, 60)}`);
}

const rowBatch = 200;
export const defaultPageBytes = 256 * 1024;

/** The ship side of replication: the change feed a shore follows (docs/ship-to-shore.md#the-change-feed). */
export class SyncFeedService {
  private readonly repo: SyncFeedRepository;

  constructor(private readonly ctx: AppContext) {
    this.repo = new SyncFeedRepository(ctx.database);
  }

  private get db(): Kysely<DB> {
    return this.ctx.database.db;
  }

  async head(): Promise<string> {
    return encodeCursor({ kind: 'stream', at: await this.repo.head() });
  }

  /** How far a cursor is behind the head (records and approximate bytes); a snapshot counts its tables. */
  async behind(raw: string | null): Promise<{ records: number; bytes: number }> {
    const cursor = decodeCursor(raw ?? undefined);
    const tail = await this.repo.behind(cursor.kind === 'stream' ? cursor.at : cursor.resume);
    if (cursor.kind === 'stream') return tail;
    let records = tail.records;
    for (let t = cursor.type; t <= cursor.last; t++) {
      const type = snapshotOrder[t]!;
      if (!isTableType(type)) continue;
      const row = await this.db
        .selectFrom(syncTables[type].table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('id', '>', t === cursor.type ? cursor.key : '')
        .executeTakeFirst();
      records += Number(row?.n ?? 0);
    }
    return { records, bytes: tail.bytes + (records - tail.records) * 400 };
  }

  /**
   * The page after `after`, holding only what `reader` may read
   * (docs/security.md#device-keys-and-the-change-feed): a record it may not read is left out of a
   * snapshot and answered as a deletion in the stream, as a missing record would be.
   */
  async changes(reader: FeedReader, after: string | undefined, maxBytes = defaultPageBytes): Promise<SyncChangesPage> {
    let cursor = decodeCursor(after);
    if (after === undefined || after === '' || after === '0') {
      // A first follow: the snapshot resumes the stream where the trail is now.
      cursor = { kind: 'snapshot', resume: await this.repo.head(), type: 0, last: snapshotOrder.length - 1, key: '' };
    }
    const changes: SyncChange[] = [];
    let bytes = 0;
    let full = false;
    const add = (batch: SyncChange[], next: Cursor) => {
      const seq = encodeCursor(next);
      for (const c of batch) {
        c.seq = seq;
        bytes += JSON.stringify(c).length;
        changes.push(c);
      }
      cursor = next;
      if (bytes >= maxBytes) full = true;
    };
    let exhausted = false;
    while (!full && !exhausted) {
      const c: Cursor = cursor;
      if (c.kind === 'snapshot') {
        const type = snapshotOrder[c.type]!;
        const { items, done } = await this.snapshotBatch(reader, type, c.key);
        for (const item of items) {
          if (full) break;
          // A record the reader may not read still moves the cursor past it.
          add(item.changes, { ...c, key: item.key });
        }
        if (!full && done) {
          add([], c.type < c.last ? { ...c, type: c.type + 1, key: '' } : { kind: 'stream', at: c.resume });
        }
      } else {
        const rows = await this.repo.rowsAfter(c.at, rowBatch);
        if (rows.length < rowBatch) exhausted = true;
        for (const row of rows) {
          if (full) {
            exhausted = false;
            break;
          }
          const at = { xid: row.xid, seq: row.seq };
          if (row.record_type === 'event' && row.record_id === null && row.action !== 'wipe') {
            // An import: its events and aux data are copied again from the tables, then the stream goes on.
            const eventIdx = snapshotOrder.indexOf('event');
            add([], { kind: 'snapshot', resume: at, type: eventIdx, last: eventIdx + 1, key: '' });
            exhausted = false;
            break;
          }
          add(await this.expand(reader, row), { kind: 'stream', at });
        }
      }
    }
    const head = await this.head();
    const next = encodeCursor(cursor);
    const more = !exhausted || (cursor as Cursor).kind === 'snapshot';
    const behind = more ? await this.behind(next) : { records: 0, bytes: 0 };
    return { changes, next, more, head, head_bytes_behind: behind.bytes, head_records_behind: behind.records };
  }

  private async snapshotBatch(
    reader: FeedReader,
    type: (typeof snapshotOrder)[number],
    after: string,
  ): Promise<{ items: Array<{ key: string; changes: SyncChange[] }>; done: boolean }> {
    if (type === 'file') {
      const paths = (await allFilePaths(this.ctx)).filter((p) => p > after).slice(0, rowBatch);
      const items: Array<{ key: string; changes: SyncChange[] }> = [];
      for (const p of paths) {
        const record = (await reader.mayReadFile(p)) ? await fileRecord(this.ctx, p) : null;
        items.push({ key: p, changes: record ? [upsert('file', p, { ...record })] : [] });
      }
      return { items, done: paths.length < rowBatch };
    }
    if (type === 'recording') {
      const rows = await this.db
        .selectFrom('recordings')
        .select(['id', 'lowering_id'])
        .where('id', '>', after)
        .orderBy('id')
        .limit(rowBatch)
        .execute();
      const items: Array<{ key: string; changes: SyncChange[] }> = [];
      for (const r of rows) {
        // The recording and its proxy's file are one item: a page never ends between them.
        items.push({
          key: r.id,
          changes: (await reader.mayReadRecording(r.lowering_id)) ? await this.recording(r.id) : [],
        });
      }
      return { items, done: rows.length < rowBatch };
    }
    const spec = syncTables[type];
    // Events the reader may not see are left out in SQL (the ts index; by origin on a fleet shore),
    // as every event list does.
    const hidden =
      type === 'event' && !reader.everything
        ? visibleEvents(sql.ref('events.id'), sql.ref('events.ts'), reader.access)
        : null;
    let query = this.db
      .selectFrom(spec.table)
      .select(spec.columns as never)
      .where('id', '>', after);
    if (hidden) query = query.where(hidden);
    const rows = (await query.orderBy('id').limit(rowBatch).execute()) as Array<
      Record<string, unknown> & { id: string }
    >;
    const seen =
      type === 'event_aux_data' && !reader.everything
        ? await reader.visibleEvents(rows.map((r) => String(r.event_id)))
        : null;
    const items: Array<{ key: string; changes: SyncChange[] }> = [];
    for (const r of rows) {
      const readable = seen ? seen.has(String(r.event_id)) : type === 'event' || (await reader.mayRead(type, r));
      items.push({ key: r.id, changes: readable ? [upsert(type, r.id, normalise(r))] : [] });
    }
    return { items, done: rows.length < rowBatch };
  }

  /** The changes one audit row stands for: the record as it is now (or its deletion), and files. */
  private async expand(reader: FeedReader, row: FeedAuditRow): Promise<SyncChange[]> {
    const type = row.record_type;
    if (type === 'event' && row.action === 'wipe') return [del('event', '*')];
    if (type === 'file') {
      const value = parseJson<{ record_type?: string; files?: unknown }>(row.new_value ?? row.old_value ?? '', {});
      const files = Array.isArray(value.files) ? value.files.filter((f): f is string => typeof f === 'string') : [];
      if (!row.record_id || !value.record_type) return [];
      const out: SyncChange[] = [];
      for (const name of files) {
        const rel = ownedFilePath(value.record_type, row.record_id, name);
        if (await reader.mayReadFile(rel)) out.push(await this.fileChange(rel));
      }
      return out;
    }
    if (type === 'recording' && row.record_id) {
      const found = await recordingFeedRecord(this.db, row.record_id);
      // A recording the reader may not read (any more) is answered as a missing one: gone.
      if (!found || !(await reader.mayReadRecording(String(found.record.lowering_id)))) {
        return recordingChanges(row.record_id, null, null);
      }
      return this.recording(row.record_id);
    }
    if (!isTableType(type) || !row.record_id) return [];
    const current = await this.current(type, row.record_id);
    // A record the reader may not read (any more) is answered as a missing one: gone.
    if (!current || !(await reader.mayRead(type, current))) return [del(type, row.record_id)];
    const out = [upsert(type, row.record_id, current)];
    // The reader sees this aux record's event, so the frame grabs it names are the reader's too.
    if (type === 'event_aux_data') out.push(...(await this.framegrabs(String(current.data_array))));
    return out;
  }

  /** A recording's change, then its proxy's file (docs/video.md#ship-to-shore). */
  private async recording(id: string): Promise<SyncChange[]> {
    const found = await recordingFeedRecord(this.db, id);
    const file = found?.proxyFile ? await proxyFileRecord(this.ctx, found.proxyFile) : null;
    return recordingChanges(id, found, file);
  }

  private async current(type: TableRecordType, id: string): Promise<Record<string, unknown> | null> {
    const spec = syncTables[type];
    const row = await this.db
      .selectFrom(spec.table)
      .select(spec.columns as never)
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? normalise(row as Record<string, unknown>) : null;
  }

  /** The image files an aux record names that the image folder holds (frame grabs). */
  private async framegrabs(dataArray: string): Promise<SyncChange[]> {
    const items = parseJson<Array<{ data_value?: unknown }>>(dataArray, []);
    const out: SyncChange[] = [];
    if (!Array.isArray(items)) return out;
    for (const item of items) {
      if (typeof item?.data_value !== 'string' || !/\.(jpe?g|png|gif|webp|tiff?)$/i.test(item.data_value)) continue;
      const record = await fileRecord(this.ctx, `images/${baseName(item.data_value)}`);
      if (record) out.push(upsert('file', record.path, { ...record }));
    }
    return out;
  }

  private async fileChange(rel: string): Promise<SyncChange> {
    const record = await fileRecord(this.ctx, rel);
    return record ? upsert('file', rel, { ...record }) : del('file', rel);
  }
}

function upsert(type: SyncChange['record_type'], id: string, record: Record<string, unknown>): SyncChange {
  return { seq: '', op: 'upsert', record_type: type, record_id: id, record };
}

function del(type: SyncChange['record_type'], id: string): SyncChange {
  return { seq: '', op: 'delete', record_type: type, record_id: id, record: null };
}

/** Numbers as numbers whatever the driver gave (PostgreSQL answers BIGINT as text). */
function normalise(row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) {
    out[k] =
      typeof v === 'string' &&
      /(_ts|^ts|_until|_hidden|_public|_required|system_template|disabled|admin_only)$/.test(k) &&
      /^-?\d+$/.test(v)
        ? Number(v)
        : v;
  }
  return out;
}
