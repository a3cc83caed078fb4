import type { Readable } from 'node:stream';
import { AppError } from '../lib/app-error.js';

/**
 * The one file store every file of the server goes through (docs/storage.md#files): frame grabs
 * and their thumbnails, event attachments, cruise and lowering files, pending uploads, files
 * copied from a ship. Two implementations: the local folder (the default; the layout under the
 * data folder is what it always was) and an S3-compatible bucket.
 *
 * Keys are `/`-separated paths relative to the files folder, the same paths the ship-to-shore
 * feed names: `images/<name>`, `images/.thumbnails/<width>/<name>.jpg`, `cruises/<id>/<name>`,
 * `lowerings/<id>/<name>`, `recordings/<recording id>/<copy id>.mp4` for recordings' proxies, and
 * `upload-tmp/<kind>s/<upload id>/<name>` for uploads waiting for the PATCH that commits them. Every
 * key is checked by `storeKey` before use.
 */

/**
 * The areas of stored files that backups and `bathylog storage-migrate` carry (pending uploads
 * are not: they are swept after a day). A new kind of file gets an area here.
 */
export const storedAreas = ['images', 'cruises', 'lowerings', 'recordings'] as const;

/** What the store knows of a stored file. */
export interface StoredFile {
  key: string;
  size: number;
  /** Last change, epoch ms (S3: whole seconds). */
  mtimeMs: number;
}

/** A byte range, both ends included (HTTP's `bytes=start-end`). */
export interface ByteRange {
  start: number;
  end: number;
}

export interface FileStore {
  readonly kind: 'local' | 's3';
  /** Where it is, for logs and `bathylog storage-status`: a folder, or `s3://bucket/prefix` (never credentials). */
  readonly description: string;
  /** The stored file under `key`, or null when there is none (a folder, a symlink out of the store, nothing). */
  stat(key: string): Promise<StoredFile | null>;
  /** The file's bytes as a stream (a range of them when given); null when there is no such file. */
  read(key: string, range?: ByteRange): Promise<Readable | null>;
  /** The whole file in memory, for small files (thumbnails); null when there is none. */
  readBuffer(key: string): Promise<Buffer | null>;
  /**
   * Stores `body` under `key`. Nothing is visible under `key` until the whole body is stored (a
   * temporary name renamed, or S3's atomic PUT / complete-multipart); a body that fails midway
   * leaves nothing behind. Large bodies are streamed (S3: multipart), never held in memory.
   */
  put(key: string, body: Readable | Buffer, opts?: { contentType?: string }): Promise<void>;
  /** Stores a local file under `key` and removes the local file (local store: a rename). */
  putFile(key: string, localPath: string): Promise<void>;
  /** Moves a stored file to another key (local: rename; S3: copy, then delete). */
  move(from: string, to: string): Promise<void>;
  /** Deletes one regular file; true when one went, false when there was none. */
  delete(key: string): Promise<boolean>;
  /** Deletes everything under a folder prefix (`cruises/<id>/`). */
  deletePrefix(prefix: string): Promise<void>;
  /**
   * The files under a folder prefix (`images/`), sorted by key. Not recursive by default: only
   * the files directly in that folder. `startsWith` keeps the names that start with it (S3 lists
   * only those, so an event's attachments are found without listing every image).
   */
  list(prefix: string, opts?: { recursive?: boolean; startsWith?: string }): Promise<StoredFile[]>;
  /**
   * The names of the files directly in a folder prefix (`cruises/<id>/`), sorted as `list` sorts
   * them: what a record's wire form shows. The local store answers from a listing it keeps while
   * the folder is unchanged (docs/performance.md#per-request); S3 lists the prefix each time.
   */
  names(prefix: string): Promise<string[]>;
  /**
   * Makes an empty folder where folders exist (the local store: a new record's folder, as the
   * server always made); nothing on S3, where folders are only key prefixes.
   */
  makeFolder(prefix: string): Promise<void>;
  /** The names of the folders directly under a folder prefix (`upload-tmp/cruises/`). */
  listFolders(prefix: string): Promise<string[]>;
  /**
   * A local path where a resumable download of `key` may be assembled before `putFile` (local:
   * beside the final file, as before; S3: a staging folder under the data folder).
   */
  stagingPath(key: string, suffix: string): string;
  /**
   * Where a program beside the server (ffmpeg grabbing a frame from a proxy) reads a stored file:
   * its local path, or on S3 a GET URL signed for `ttlSeconds` (the bucket stays private; the URL
   * names one file, and never leaves the server). For a key `stat` found: the local store answers
   * null when the file is gone, a bucket's URL then answers 404 to ffmpeg.
   */
  peerSource(key: string, ttlSeconds: number): Promise<{ path: string } | { url: string } | null>;
  /** Throws when the store cannot be used now (readiness): an unreachable or refusing bucket. */
  check(): Promise<void>;
  /** Lets go of connections (the CLI, shutdown, tests). */
  close(): void;
}

// eslint-disable-next-line no-control-regex
const forbiddenInSegment = /[\u0000-\u001f\u007f\\]/;

/**
 * A key from path segments: every segment a plain name (not empty, not `.` or `..`, no
 * separators or control characters, at most 255 bytes). Anything else is a bug or an attack,
 * refused before any store sees it.
 */
export function storeKey(...segments: string[]): string {
  for (const s of segments) {
    if (
      s.length === 0 ||
      s === '.' ||
      s === '..' ||
      s.includes('/') ||
      forbiddenInSegment.test(s) ||
      Buffer.byteLength(s, 'utf8') > 255
    ) {
      throw new AppError('BAD_REQUEST', 'Invalid file path');
    }
  }
  return segments.join('/');
}

/** Checks a whole key (`a/b/c`) the way `storeKey` checks segments; answers it. */
export function checkedKey(key: string): string {
  return storeKey(...key.split('/'));
}

/** Checks a folder prefix (`a/b/`): a checked key followed by one `/`. */
export function checkedPrefix(prefix: string): string {
  if (!prefix.endsWith('/')) throw new AppError('BAD_REQUEST', 'Invalid file path');
  return `${checkedKey(prefix.slice(0, -1))}/`;
}

/** The error every store answers when it cannot be reached or refuses to work; never names credentials. */
export function storeUnavailable(): AppError {
  return new AppError('SERVICE_UNAVAILABLE', 'The file store is not reachable at the moment; try again later', {
    headers: { 'retry-after': '30' },
  });
}

/** Sorts by key, byte order (the order the local folder and S3 listings agree on). */
export function byKey(a: StoredFile, b: StoredFile): number {
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}
