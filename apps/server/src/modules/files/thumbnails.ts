import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { isThumbnailWidth, thumbnailWidthMessage, type ThumbnailWidth } from '@bathylog/shared';
import { AppError } from '../../lib/app-error.js';
import { contentTypeFor } from './mime.js';

/** The folder beside an original that holds its thumbnails, one sub-folder per width. */
export const thumbnailFolder = '.thumbnails';

/** Formats sharp decodes that inserter scripts write; anything else gets no thumbnail. */
const scalableTypes = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/tiff', 'image/avif']);

/** `w` from the query: undefined when absent, a listed width, or a 400 naming the allowed ones. */
export function thumbnailWidthOf(raw: unknown): ThumbnailWidth | undefined {
  if (raw === undefined) return undefined;
  const text = Array.isArray(raw) ? raw.at(-1) : raw;
  const width = typeof text === 'string' && /^\d{1,5}$/.test(text) ? Number(text) : NaN;
  if (!isThumbnailWidth(width)) throw new AppError('BAD_REQUEST', thumbnailWidthMessage);
  return width;
}

export interface Thumbnail {
  contentType: 'image/jpeg';
  body: Buffer;
}

/** Where the thumbnail of `name` in `folder` is cached. */
export function thumbnailCachePath(folder: string, name: string, width: ThumbnailWidth): string {
  return path.join(folder, thumbnailFolder, String(width), `${name}.jpg`);
}

/**
 * The JPEG thumbnail of an image file, `width` px wide (never enlarged). Made by sharp on first
 * request and cached at `<folder>/.thumbnails/<width>/<name>.jpg`; a cached file older than its
 * original is made again. The cache is written to a temporary name and renamed, so concurrent
 * requests never read half a file; when the image folder is read-only the thumbnail is still
 * answered, just not kept.
 */
export async function thumbnailOf(original: string, name: string, width: ThumbnailWidth): Promise<Thumbnail> {
  if (!scalableTypes.has(contentTypeFor(name))) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', `No thumbnail can be made of ${name}: not an image`);
  }
  const cached = thumbnailCachePath(path.dirname(original), path.basename(original), width);
  const cacheDir = path.dirname(cached);
  const [source, existing] = await Promise.all([stat(original), stat(cached).catch(() => null)]);
  if (existing?.isFile() && existing.mtimeMs >= source.mtimeMs) {
    return { contentType: 'image/jpeg', body: await readFile(cached) };
  }
  let body: Buffer;
  try {
    body = await sharp(original, { failOn: 'error' })
      .rotate()
      .resize({ width, withoutEnlargement: true })
      .flatten({ background: '#000000' })
      .jpeg({ quality: 78, mozjpeg: true })
      .toBuffer();
  } catch {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', `No thumbnail can be made of ${name}: the image cannot be read`);
  }
  const temp = `${cached}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await mkdir(cacheDir, { recursive: true });
    await writeFile(temp, body);
    await rename(temp, cached);
  } catch {
    await rm(temp, { force: true });
  }
  return { contentType: 'image/jpeg', body };
}
