import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { SyncChange, SyncFileRecord } from '@bathylog/shared';
import type { Kysely, Transaction } from 'kysely';
import type { AppContext } from '../../context.js';
import type { DB } from '../../db/schema.js';
import { parseJson } from '../../lib/json.js';
import { mediaSource } from '../../media/media-uri.js';
import { storedKeyOf, storedUri } from '../../media/stored-copy.js';

/**
 * Recordings on the change feed (docs/video.md#ship-to-shore). A recording travels as one record:
 * its row and its copies' metadata (`copies`, JSON text). Only a proxy copy held as a local file
 * travels with its file, named `recordings/<recording id>/<copy id><ext>` on the feed; a proxy
 * at an http(s) URL travels as its URL. Every other copy (the master above all: many gigabytes,
 * full quality) is listed on the shore as staying on the ship and is never sent.
 */

/** The feed area of proxy files (beside `images`, `cruises`, `lowerings`). */
export const recordingArea = 'recordings';

const copyExt = /^\.[a-z0-9]{1,8}$/;

/** The feed path of a local proxy copy's file. */
export function proxyFeedPath(recordingId: string, copyId: string, uri: string): string {
  const ext = path.extname(uri).toLowerCase();
  return `${recordingArea}/${recordingId}/${copyId}${copyExt.test(ext) ? ext : ''}`;
}

/** What the shore learns of one copy. */
interface FeedCopy {
  id: string;
  role: string;
  codec: string | null;
  size_bytes: number | null;
  width: number | null;
  height: number | null;
  frame_rate: number | null;
  interlaced: number;
  checksum: string | null;
  /** The proxy's file on the feed, or its http(s) URL; absent for a copy that stays on the ship. */
  file?: string;
  url?: string;
}

const numOrNull = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/**
 * A recording as the feed carries it, and the feed path of its proxy's file (when it has a local
 * one), or null when there is no such recording (any more).
 */
export async function recordingFeedRecord(
  db: Kysely<DB>,
  id: string,
): Promise<{ record: Record<string, unknown>; proxyFile: string | null } | null> {
  const row = await db.selectFrom('recordings').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) return null;
  const copies = await db
    .selectFrom('recording_copies')
    .selectAll()
    .where('recording_id', '=', id)
    .orderBy('id')
    .execute();
  let proxyFile: string | null = null;
  const out: FeedCopy[] = [];
  for (const c of copies) {
    // A shore that follows a shore passes on only what it holds itself.
    if (Number(c.on_ship_only) === 1) continue;
    const copy: FeedCopy = {
      id: c.id,
      role: c.role,
      codec: c.codec,
      size_bytes: numOrNull(c.size_bytes),
      width: numOrNull(c.width),
      height: numOrNull(c.height),
      frame_rate: numOrNull(c.frame_rate),
      interlaced: Number(c.interlaced) === 1 ? 1 : 0,
      checksum: c.checksum,
    };
    if (c.role === 'proxy') {
      if (/^https?:\/\//i.test(c.uri)) copy.url = c.uri;
      else copy.file = proxyFile = proxyFeedPath(id, c.id, c.uri);
    }
    out.push(copy);
  }
  return {
    record: {
      id: row.id,
      lowering_id: row.lowering_id,
      camera: row.camera,
      start_ts: Number(row.start_ts),
      duration_ms: Number(row.duration_ms),
      created_at: Number(row.created_at),
      copies: JSON.stringify(out),
    },
    proxyFile,
  };
}

/** The lowering a recording belongs to (the access rule of the lowering decides who reads it). */
export async function recordingLowering(db: Kysely<DB>, recordingId: string): Promise<string | null> {
  const row = await db.selectFrom('recordings').select('lowering_id').where('id', '=', recordingId).executeTakeFirst();
  return row?.lowering_id ?? null;
}

/**
 * The file behind a feed path `recordings/<recording id>/<copy id><ext>` on the ship: the proxy
 * copy's file, in the file store (a proxy the server made, or copied from a ship) or a file
 * registered under the data folder (checked to be inside it, as every copy is); null for anything
 * else (another role, a URL, a name that is not the copy's feed name).
 */
async function proxyFileOf(
  ctx: AppContext,
  rel: string,
): Promise<{ kind: 'file'; path: string } | { kind: 'stored'; key: string } | null> {
  const parts = rel.split('/');
  if (parts.length !== 3 || parts[0] !== recordingArea) return null;
  const [, recordingId, name] = parts as [string, string, string];
  const copyId = name.replace(/\.[^.]*$/, '');
  const copy = await ctx.database.db
    .selectFrom('recording_copies')
    .select(['uri', 'role', 'on_ship_only'])
    .where('id', '=', copyId)
    .where('recording_id', '=', recordingId)
    .executeTakeFirst();
  if (!copy || copy.role !== 'proxy' || Number(copy.on_ship_only) === 1) return null;
  if (proxyFeedPath(recordingId, copyId, copy.uri) !== rel) return null;
  const key = storedKeyOf(copy.uri);
  if (key) return { kind: 'stored', key };
  try {
    const source = await mediaSource(copy.uri, ctx.paths.data);
    return source.kind === 'file' ? source : null;
  } catch {
    return null;
  }
}

/** A proxy's size and change time, and how to read it (a byte range of it when given). */
async function openProxy(
  ctx: AppContext,
  rel: string,
): Promise<{
  size: number;
  mtimeMs: number;
  open: (range?: { start: number; end: number }) => Promise<Readable>;
} | null> {
  const found = await proxyFileOf(ctx, rel);
  if (!found) return null;
  if (found.kind === 'stored') {
    const info = await ctx.store.stat(found.key);
    if (!info) return null;
    return {
      size: info.size,
      mtimeMs: info.mtimeMs,
      open: async (range) => {
        const body = await ctx.store.read(found.key, range);
        if (!body) throw new Error('the proxy went from the store');
        return body;
      },
    };
  }
  const info = await stat(found.path).catch(() => null);
  if (!info?.isFile()) return null;
  return {
    size: info.size,
    mtimeMs: info.mtimeMs,
    open: async (range) => createReadStream(found.path, range ? { start: range.start, end: range.end } : {}),
  };
}

/** The feed record of a proxy's file (its checksum cached by size and time as other files are). */
export async function proxyFileRecord(ctx: AppContext, rel: string): Promise<SyncFileRecord | null> {
  const info = await openProxy(ctx, rel);
  if (!info) return null;
  const db = ctx.database.db;
  const mtime = Math.floor(info.mtimeMs);
  const known = await db.selectFrom('sync_file_hashes').selectAll().where('path', '=', rel).executeTakeFirst();
  const cached = known && Number(known.size) === info.size && Number(known.mtime) === mtime ? known.sha256 : null;
  let sha256 = cached;
  if (!cached) {
    const hash = createHash('sha256');
    for await (const chunk of await info.open()) hash.update(chunk as Buffer);
    const digest = hash.digest('hex');
    sha256 = digest;
    await db
      .insertInto('sync_file_hashes')
      .values({ path: rel, sha256: digest, size: info.size, mtime })
      .onConflict((oc) => oc.column('path').doUpdateSet({ sha256: digest, size: info.size, mtime }))
      .execute();
  }
  return { path: rel, sha256: sha256!, size: info.size, image: false };
}

/** A proxy's file (or a byte range of it) to answer `sync/files`, with its size. */
export async function readProxyFile(
  ctx: AppContext,
  rel: string,
): Promise<{ size: number; open: (range?: { start: number; end: number }) => Promise<Readable> } | null> {
  return openProxy(ctx, rel);
}

/** Why a recording record from a ship may not be stored, or null when it may. */
function recordingProblem(r: Record<string, unknown>, id: string): string | null {
  if (r.id !== id) return '"id" is not the change\'s record_id';
  if (typeof r.lowering_id !== 'string' || !/^[0-9a-f]{24}$/.test(r.lowering_id)) {
    return '"lowering_id" must be a 24-character lower-case hex id';
  }
  if (typeof r.camera !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(r.camera)) {
    return '"camera" must be letters, digits, _ or -';
  }
  for (const k of ['start_ts', 'duration_ms', 'created_at'] as const) {
    if (!Number.isSafeInteger(r[k]) || (k === 'duration_ms' && Number(r[k]) < 0))
      return `"${k}" must be a whole number`;
  }
  if (typeof r.copies !== 'string') return '"copies" is not JSON text';
  return null;
}

const roles = new Set(['master', 'proxy', 'hls']);
const finiteOrNull = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const textOrNull = (v: unknown) => (typeof v === 'string' ? v.slice(0, 200) : null);

/**
 * Stores a ship's recording on the shore (in the page's transaction): the row, and its copies
 * replaced by what the ship sent. The proxy's copy names where its file will be (the file itself
 * follows in the file queue); the other copies are listed as staying on the ship. Answers the
 * problem when the record may not be stored.
 */
export async function storeShipRecording(
  ctx: AppContext,
  trx: Transaction<DB>,
  id: string,
  r: Record<string, unknown>,
): Promise<string | null> {
  const problem = recordingProblem(r, id);
  if (problem) return problem;
  const listed = parseJson<unknown>(String(r.copies), null);
  if (!Array.isArray(listed)) return '"copies" must be a list';
  const copies: Array<DB['recording_copies'] & { on_ship_only: number }> = [];
  for (const raw of listed.slice(0, 16)) {
    const c = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
    if (typeof c.id !== 'string' || !/^[0-9a-f]{24}$/.test(c.id)) return 'a copy\'s "id" must be a 24-character hex id';
    if (typeof c.role !== 'string' || !roles.has(c.role)) return 'a copy\'s "role" must be master, proxy or hls';
    let uri = `ship:${id}/${c.id}`;
    let onShipOnly = 1;
    if (c.role === 'proxy' && typeof c.file === 'string') {
      if (c.file !== proxyFeedPath(id, c.id, c.file) || !storedKeyOf(storedUri(c.file)))
        return 'a copy\'s "file" is not its feed name';
      // Where the file queue puts it: the file store, under the feed path (folder or bucket).
      uri = storedUri(c.file);
      onShipOnly = 0;
    } else if (c.role === 'proxy' && typeof c.url === 'string') {
      try {
        await mediaSource(c.url, ctx.paths.data);
      } catch {
        return 'a copy\'s "url" is not one this server would register';
      }
      uri = c.url;
      onShipOnly = 0;
    }
    copies.push({
      id: c.id,
      recording_id: id,
      role: c.role,
      uri,
      codec: textOrNull(c.codec),
      size_bytes: finiteOrNull(c.size_bytes),
      width: finiteOrNull(c.width),
      height: finiteOrNull(c.height),
      frame_rate: finiteOrNull(c.frame_rate),
      interlaced: c.interlaced === 1 ? 1 : 0,
      checksum: textOrNull(c.checksum),
      on_ship_only: onShipOnly,
    });
  }
  const row = {
    lowering_id: r.lowering_id as string,
    camera: r.camera as string,
    start_ts: Number(r.start_ts),
    duration_ms: Number(r.duration_ms),
    created_at: Number(r.created_at),
  };
  const existing = await trx.selectFrom('recordings').select('id').where('id', '=', id).executeTakeFirst();
  if (existing) await trx.updateTable('recordings').set(row).where('id', '=', id).execute();
  else
    await trx
      .insertInto('recordings')
      .values({ id, ...row })
      .execute();
  await trx.deleteFrom('recording_copies').where('recording_id', '=', id).execute();
  if (copies.length > 0) {
    // A copy id another recording of this server holds is not this record's to take.
    const taken = await trx
      .selectFrom('recording_copies')
      .select('id')
      .where(
        'id',
        'in',
        copies.map((c) => c.id),
      )
      .executeTakeFirst();
    if (taken) return 'a copy\'s "id" belongs to another recording here';
    await trx.insertInto('recording_copies').values(copies).execute();
  }
  return null;
}

/** Removes a copied recording and its copies (in the page's transaction). */
export async function deleteShipRecording(trx: Transaction<DB>, id: string): Promise<void> {
  await trx.deleteFrom('recording_copies').where('recording_id', '=', id).execute();
  await trx.deleteFrom('recordings').where('id', '=', id).execute();
}

/** The recording change of a feed record and its proxy's file change, in that order. */
export function recordingChanges(
  id: string,
  found: { record: Record<string, unknown> } | null,
  file: SyncFileRecord | null,
): SyncChange[] {
  if (!found) return [{ seq: '', op: 'delete', record_type: 'recording', record_id: id, record: null }];
  const out: SyncChange[] = [{ seq: '', op: 'upsert', record_type: 'recording', record_id: id, record: found.record }];
  if (file) out.push({ seq: '', op: 'upsert', record_type: 'file', record_id: file.path, record: { ...file } });
  return out;
}
