import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { SyncFileRecord } from '@bathylog/shared';
import type { AppContext } from '../../context.js';
import { joinInside, safeSegments } from '../files/safe-path.js';
import { thumbnailFolder } from '../files/thumbnails.js';

/**
 * Files as the change feed names them: a path under the files folder (`images/<name>`,
 * `cruises/<id>/<name>`, `lowerings/<id>/<name>`), its SHA-256 and size. Checksums are kept in
 * `sync_file_hashes` and recomputed when a file's size or time changes.
 */
export const fileAreas = ['images', 'cruises', 'lowerings'] as const;

/** The absolute path of a feed path, or null when it names anything outside the three areas. */
export function absoluteFilePath(ctx: AppContext, rel: string): string | null {
  const segments = safeSegments(rel);
  if (!segments || segments.length < 2) return null;
  const [area] = segments;
  if (!fileAreas.includes(area as (typeof fileAreas)[number])) return null;
  if (segments.includes(thumbnailFolder)) return null;
  if (area === 'images' ? segments.length !== 2 : segments.length !== 3) return null;
  return joinInside(ctx.paths.files, segments);
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** The feed record of a file, or null when it is not there (any more). */
export async function fileRecord(ctx: AppContext, rel: string): Promise<SyncFileRecord | null> {
  const abs = absoluteFilePath(ctx, rel);
  if (!abs) return null;
  const info = await stat(abs).catch(() => null);
  if (!info?.isFile()) return null;
  const db = ctx.database.db;
  const mtime = Math.floor(info.mtimeMs);
  const known = await db.selectFrom('sync_file_hashes').selectAll().where('path', '=', rel).executeTakeFirst();
  const cached = known && Number(known.size) === info.size && Number(known.mtime) === mtime ? known.sha256 : null;
  const sha256 = cached ?? (await sha256Of(abs));
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
  const files = async (dir: string) =>
    (await readdir(dir, { withFileTypes: true }).catch(() => [])).filter((e) => e.isFile()).map((e) => e.name);
  for (const name of await files(ctx.paths.images)) out.push(`images/${name}`);
  for (const area of ['cruises', 'lowerings'] as const) {
    const root = path.join(ctx.paths.files, area);
    const owners = (await readdir(root, { withFileTypes: true }).catch(() => [])).filter((e) => e.isDirectory());
    for (const owner of owners) {
      for (const name of await files(path.join(root, owner.name))) out.push(`${area}/${owner.name}/${name}`);
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
