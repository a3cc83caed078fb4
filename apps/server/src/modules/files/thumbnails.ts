import type sharpModule from 'sharp';
import { isThumbnailWidth, thumbnailWidthMessage, type ThumbnailWidth } from '@bathylog/shared';
import { AppError } from '../../lib/app-error.js';
import { lazyPackage } from '../../lib/lazy-package.js';
import type { FileStore } from '../../storage/index.js';
import { contentTypeFor } from './mime.js';

/** sharp, loaded with the first thumbnail made. */
const loadSharp = lazyPackage<typeof sharpModule>('sharp');

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

/** The store key of a thumbnail of the image stored under `key` (`images/.thumbnails/<width>/<name>.jpg`). */
export function thumbnailKey(key: string, width: ThumbnailWidth): string {
  const cut = key.lastIndexOf('/');
  const folder = cut < 0 ? '' : key.slice(0, cut + 1);
  return `${folder}${thumbnailFolder}/${width}/${key.slice(cut + 1)}.jpg`;
}

/**
 * The JPEG thumbnail of a stored image, `width` px wide (never enlarged). Made by sharp on first
 * request and cached in the store beside the original (`<folder>/.thumbnails/<width>/<name>.jpg`);
 * a cached one older than its original is made again. The store writes atomically, so concurrent
 * requests never read half a thumbnail; when it cannot keep one (a read-only folder, a bucket
 * refusing writes) the thumbnail is still answered, just not kept.
 */
export async function thumbnailOf(
  store: FileStore,
  key: string,
  name: string,
  width: ThumbnailWidth,
): Promise<Thumbnail> {
  if (!scalableTypes.has(contentTypeFor(name))) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', `No thumbnail can be made of ${name}: not an image`);
  }
  const cachedKey = thumbnailKey(key, width);
  const [source, existing] = await Promise.all([store.stat(key), store.stat(cachedKey)]);
  if (!source) throw new AppError('NOT_FOUND', 'Not Found');
  if (existing && existing.mtimeMs >= source.mtimeMs) {
    const cached = await store.readBuffer(cachedKey);
    if (cached) return { contentType: 'image/jpeg', body: cached };
  }
  const original = await store.read(key);
  if (!original) throw new AppError('NOT_FOUND', 'Not Found');
  let body: Buffer;
  // Outside the try: sharp that cannot load is the installation's fault (a 500 with its error
  // logged), not an unreadable image.
  const sharp = loadSharp();
  try {
    const resize = sharp({ failOn: 'error' })
      .rotate()
      .resize({ width, withoutEnlargement: true })
      .flatten({ background: '#000000' })
      .jpeg({ quality: 78, mozjpeg: true });
    original.on('error', (err) => resize.destroy(err));
    body = await original.pipe(resize).toBuffer();
  } catch {
    original.destroy();
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', `No thumbnail can be made of ${name}: the image cannot be read`);
  }
  await store.put(cachedKey, body, { contentType: 'image/jpeg' }).catch(() => undefined);
  return { contentType: 'image/jpeg', body };
}
