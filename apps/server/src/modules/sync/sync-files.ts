import { createHash } from 'node:crypto';
import type { SyncFileRecord } from '@bathylog/shared';
import type { AppContext } from '../../context.js';
import { safeSegments } from '../files/safe-path.js';
import { thumbnailFolder } from '../files/thumbnails.js';

/**
 * Files as the change feed names them: a path under the files folder (`images/<name>`,
 * `cruises/<id>/<name>`, `lowerings/<id>/<name>`; a recording's proxy, `recordings/<id>/<name>`: see
 * sync-recordings.ts), its SHA-256 and size. Checksums are kept in
 * `sync_file_hashes` and recomputed when a file's size or time changes.
 */
export const fileAreas = ['images', 'cruises', 'lowerings', 'recordings'] as const;

/**
 * The file-store key of a feed path (the same path), or null when it names anything outside the
 * file areas.
 */
export function feedFileKey(rel: string): string | null {
  const segments = safeSegments(rel);
  if (!segments || segments.length < 2) return null;
  const [area] = segments;
  if (!fileAreas.includes(area as (typeof fileAreas)[number])) return null;
  if (segments.includes(thumbnailFolder)) return null;
  if (area === 'images' ? segments.length !== 2 : segments.length !== 3) return null;
  return segments.join('/');
}

async function sha256Of(ctx: AppContext, key: string): Promise<string | null> {
  const body = await ctx.store.read(key);
  if (!body) return null;
  const hash = createHash('sha256');
  for await (const chunk of body) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** The feed record of a file, or null when it is not there (any more). */
export async function fileRecord(ctx: AppContext, rel: string): Promise<SyncFileRecord | null> {
  const key = feedFileKey(rel);
  if (!key) return null;
  const info = await ctx.store.stat(key);
  if (!info) return null;
  const db = ctx.database.db;
  const mtime = Math.floor(info.mtimeMs);
  const known = await db.selectFrom('sync_file_hashes').selectAll().where('path', '=', rel).executeTakeFirst();
  const cached = known && Number(known.size) === info.size && Number(known.mtime) === mtime ? known.sha256 : null;
  const sha256 = cached ?? (await sha256Of(ctx, key));
  if (!sha256) return null;
  if (!cached) {
    const row = { path: rel, sha256, size: info.size, mtime };
    await db
      .insertInto('sync_file_hashes')
      .values(row)
      .onConflict((oc) => oc.column('path').doUpdateSet({ sha256, size: info.size, mtime }))
      .execute();
  }
  return { path: rel, sha256, size: info.size, image: rel.startsWith('images/') };
}

/** Every file of the three areas, as feed paths, sorted (the snapshot's file pass). */
export async function allFilePaths(ctx: AppContext): Promise<string[]> {
  const out: string[] = [];
  for (const file of await ctx.store.list('images/')) out.push(file.key);
  for (const area of ['cruises', 'lowerings'] as const) {
    for (const file of await ctx.store.list(`${area}/`, { recursive: true })) {
      if (file.key.split('/').length === 3) out.push(file.key);
    }
  }
  return out.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** The feed path of a file named in a `file` audit change. */
export function ownedFilePath(owner: string, ownerId: string, name: string): string {
  return owner === 'event' ? `images/${name}` : `${owner}s/${ownerId}/${name}`;
}

/** The last path component (frame-grab inserters store the path they wrote; the image folder holds the name). */
export function baseName(value: string): string {
  return value.split(/[\\/]/).pop() ?? value;
}
