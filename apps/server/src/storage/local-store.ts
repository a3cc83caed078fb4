import { randomBytes } from 'node:crypto';
import { constants, createReadStream, createWriteStream } from 'node:fs';
import {
  access,
  copyFile,
  lstat,
  mkdir,
  readdir,
  readFile,
  realpath,
  rename,
  rm,
  rmdir,
  stat,
  writeFile,
} from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppError } from '../lib/app-error.js';
import { byKey, checkedKey, checkedPrefix, type ByteRange, type FileStore, type StoredFile } from './file-store.js';

/** The area of pending uploads: kept beside the files folder, not in it (`<data>/upload-tmp`). */
export const uploadArea = 'upload-tmp';

function isInside(root: string, target: string): boolean {
  return target.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
}

function isMissing(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/**
 * What tells that a folder's entries changed: its inode and modification time (a file added,
 * removed or renamed in it sets the time, whichever process or host did it), or, for a folder that
 * does not exist, those of its parent (making it there sets the parent's). `id` compares them.
 */
interface FolderStamp {
  id: string;
  mtimeMs: number;
  missing: boolean;
}

async function folderStamp(dir: string, missingBefore = false): Promise<FolderStamp> {
  if (!missingBefore) {
    const info = await stat(dir, { bigint: true }).catch((err) => (isMissing(err) ? null : Promise.reject(err)));
    if (info) return { id: `${info.ino}:${info.mtimeNs}`, mtimeMs: Number(info.mtimeMs), missing: false };
  }
  // A folder missing before is missing still while its parent is unchanged: no error to make.
  const parent = await stat(path.dirname(dir), { bigint: true }).catch((err) =>
    isMissing(err) ? null : Promise.reject(err),
  );
  if (!parent) return { id: 'missing', mtimeMs: Infinity, missing: true };
  return { id: `missing:${parent.ino}:${parent.mtimeNs}`, mtimeMs: Number(parent.mtimeMs), missing: true };
}

/**
 * A listing is kept only when its folder's time is older than this when the reading began:
 * file systems record the time in coarse steps (a clock tick; whole seconds on some, two on FAT),
 * so a change made in the same step as the one before leaves the time as it was.
 */
const stampSettledMs = 2000;
/**
 * A kept listing is answered without looking at its folder for this long after its last check,
 * unless this store wrote meanwhile: a folder's stamp costs a file-system call (tens of µs through
 * libuv's thread pool, more than the rest of a record read), and what another server or a person
 * changes there shows after at most this long.
 */
const recheckMs = 250;
/** Bound on the folder listings kept (the oldest are forgotten first). */
const listingsKept = 10_000;

/**
 * The local folder: `<data>/files/<key>` (and `<data>/upload-tmp/…` for pending uploads), the
 * layout the server always had. A key's first segment is its area (`images`, `cruises`,
 * `lowerings`, `upload-tmp`): the file's path, with symlinks resolved, must stay inside that
 * area's folder, so a symlink planted in the image folder never serves the database or the secret.
 */
export class LocalFileStore implements FileStore {
  readonly kind = 'local' as const;
  readonly description: string;
  /** Folder listings (`names`) by folder path, each with the stamp of the folder it was read under. */
  private readonly listings = new Map<
    string,
    { stamp: FolderStamp; names: string[]; checkedAt: number; writes: number }
  >();
  /** Writes made through this store (`changing`). */
  private writes = 0;

  constructor(
    private readonly filesDir: string,
    private readonly dataDir: string,
  ) {
    this.description = filesDir;
  }

  private areaRoot(area: string): string {
    return area === uploadArea ? path.join(this.dataDir, uploadArea) : path.join(this.filesDir, area);
  }

  /** The absolute path of a key (checked segment by segment), and its area's folder. */
  private locate(key: string): { root: string; file: string } {
    const [area, ...rest] = checkedKey(key).split('/');
    const root = this.areaRoot(area!);
    return { root, file: path.join(root, ...rest) };
  }

  private folderOf(prefix: string): { root: string; dir: string } {
    const [area, ...rest] = checkedPrefix(prefix).slice(0, -1).split('/');
    const root = this.areaRoot(area!);
    return { root, dir: path.join(root, ...rest) };
  }

  /** The real path of a key's file when it is a regular file inside its area; otherwise null. */
  private async real(key: string): Promise<{ file: string; size: number; mtimeMs: number } | null> {
    const { root, file } = this.locate(key);
    try {
      const [realRoot, realFile] = await Promise.all([realpath(root), realpath(file)]);
      if (!isInside(realRoot, realFile)) return null;
      const info = await stat(realFile);
      return info.isFile() ? { file: realFile, size: info.size, mtimeMs: info.mtimeMs } : null;
    } catch {
      return null;
    }
  }

  /**
   * Makes the folder of a key's file and checks that, with symlinks resolved, it is still inside
   * the key's area: a symlinked folder never takes a write out of the store.
   */
  private async folderFor(key: string): Promise<string> {
    const { root, file } = this.locate(key);
    await mkdir(root, { recursive: true });
    const realRoot = await realpath(root);
    const inside = async (dir: string) => {
      const real = await realpath(dir);
      return real === realRoot || isInside(realRoot, real);
    };
    // The nearest folder that exists, checked before anything is made under it.
    let existing = path.dirname(file);
    while (!(await stat(existing).catch(() => null))) existing = path.dirname(existing);
    if (!(await inside(existing))) throw new AppError('BAD_REQUEST', 'Invalid file path');
    await mkdir(path.dirname(file), { recursive: true });
    if (!(await inside(path.dirname(file)))) throw new AppError('BAD_REQUEST', 'Invalid file path');
    return file;
  }

  async stat(key: string): Promise<StoredFile | null> {
    const found = await this.real(key);
    return found ? { key, size: found.size, mtimeMs: found.mtimeMs } : null;
  }

  async read(key: string, range?: ByteRange): Promise<Readable | null> {
    const found = await this.real(key);
    if (!found) return null;
    return createReadStream(found.file, range ? { start: range.start, end: range.end } : {});
  }

  async readBuffer(key: string): Promise<Buffer | null> {
    const found = await this.real(key);
    return found ? readFile(found.file).catch(() => null) : null;
  }

  private async writePut(key: string, body: Readable | Buffer): Promise<void> {
    const file = await this.folderFor(key);
    // A dot name in the same folder, renamed over the final name once complete.
    const temp = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(6).toString('hex')}.part`);
    try {
      if (Buffer.isBuffer(body)) await writeFile(temp, body, { flag: 'wx' });
      else await pipeline(body, createWriteStream(temp, { flags: 'wx' }));
      await rename(temp, file);
    } catch (err) {
      await rm(temp, { force: true });
      throw err;
    }
  }

  private async writePutFile(key: string, localPath: string): Promise<void> {
    const file = await this.folderFor(key);
    try {
      await rename(localPath, file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
      // Another file system: copied beside the target, then renamed (still atomic there).
      const temp = `${file}.${randomBytes(6).toString('hex')}.part`;
      try {
        await copyFile(localPath, temp);
        await rename(temp, file);
      } catch (copyErr) {
        await rm(temp, { force: true });
        throw copyErr;
      }
      await rm(localPath, { force: true });
    }
  }

  private async writeMove(from: string, to: string): Promise<void> {
    const source = this.locate(from).file;
    const info = await lstat(source);
    if (!info.isFile()) throw new Error(`Not a regular file: ${from}`);
    await rename(source, await this.folderFor(to));
  }

  private async writeDelete(key: string): Promise<boolean> {
    const { file } = this.locate(key);
    const info = await lstat(file).catch(() => null);
    // Only regular files: never a folder, never through a symlink.
    if (!info?.isFile()) return false;
    await rm(file, { force: true });
    await this.pruneUploadFolders(path.dirname(file));
    return true;
  }

  private async writeDeletePrefix(prefix: string): Promise<void> {
    const { root, dir } = this.folderOf(prefix);
    if (dir === root) {
      // An area's own folder stays (the server made it at start); its contents go.
      const entries = await readdir(root).catch((err) => (isMissing(err) ? [] : Promise.reject(err)));
      for (const name of entries) await rm(path.join(root, name), { recursive: true, force: true });
      if (root !== this.areaRoot(uploadArea)) await mkdir(root, { recursive: true });
      else await this.pruneUploadFolders(root);
      return;
    }
    await rm(dir, { recursive: true, force: true });
    await this.pruneUploadFolders(path.dirname(dir));
  }

  /**
   * The pending-upload folders a first upload created, once empty again, up to `<data>/upload-tmp`
   * itself: a refused upload leaves nothing behind. A folder that is not empty is kept (rmdir refuses).
   */
  private async pruneUploadFolders(from: string): Promise<void> {
    const uploads = this.areaRoot(uploadArea);
    if (from !== uploads && !isInside(uploads, from)) return;
    for (let dir = from; dir === uploads || isInside(uploads, dir); dir = path.dirname(dir)) {
      try {
        await rmdir(dir);
      } catch {
        return; // not empty, or gone already
      }
    }
  }

  async list(prefix: string, opts: { recursive?: boolean; startsWith?: string } = {}): Promise<StoredFile[]> {
    const start = opts.startsWith ?? '';
    const { dir } = this.folderOf(prefix);
    const out: StoredFile[] = [];
    const walk = async (folder: string, keyPrefix: string): Promise<void> => {
      const entries = await readdir(folder, { withFileTypes: true }).catch((err) =>
        isMissing(err) ? [] : Promise.reject(err),
      );
      for (const entry of entries) {
        if (entry.isFile()) {
          if (!entry.name.startsWith(start) && folder === dir) continue;
          const info = await stat(path.join(folder, entry.name)).catch(() => null);
          if (info) out.push({ key: keyPrefix + entry.name, size: info.size, mtimeMs: info.mtimeMs });
        } else if (entry.isDirectory() && opts.recursive && (folder !== dir || entry.name.startsWith(start))) {
          await walk(path.join(folder, entry.name), `${keyPrefix}${entry.name}/`);
        }
      }
    };
    await walk(dir, prefix);
    return out.sort(byKey);
  }

  /**
   * Every write through this store counts (before and after it): a listing is answered without a
   * look at its folder only while none was made since it was last checked, and one read while a
   * write was under way is not kept.
   */
  private async changing<T>(write: () => Promise<T>): Promise<T> {
    this.writes++;
    try {
      return await write();
    } finally {
      this.writes++;
    }
  }

  put(key: string, body: Readable | Buffer): Promise<void> {
    return this.changing(() => this.writePut(key, body));
  }

  putFile(key: string, localPath: string): Promise<void> {
    return this.changing(() => this.writePutFile(key, localPath));
  }

  move(from: string, to: string): Promise<void> {
    return this.changing(() => this.writeMove(from, to));
  }

  delete(key: string): Promise<boolean> {
    return this.changing(() => this.writeDelete(key));
  }

  deletePrefix(prefix: string): Promise<void> {
    return this.changing(() => this.writeDeletePrefix(prefix));
  }

  makeFolder(prefix: string): Promise<void> {
    return this.changing(() => this.writeMakeFolder(prefix));
  }

  async names(prefix: string): Promise<string[]> {
    const { dir } = this.folderOf(prefix);
    const started = Date.now();
    const writes = this.writes;
    const kept = this.listings.get(dir);
    if (kept && kept.writes === writes && started - kept.checkedAt < recheckMs) return kept.names;
    if (kept && (await folderStamp(dir, kept.stamp.missing)).id === kept.stamp.id && this.writes === writes) {
      kept.checkedAt = started;
      kept.writes = writes;
      return kept.names;
    }
    // The stamp before the listing: a change made while it is read leaves the stamp behind it.
    const stamp = await folderStamp(dir);
    const entries = await readdir(dir, { withFileTypes: true }).catch((err) =>
      isMissing(err) ? [] : Promise.reject(err),
    );
    const names = entries.filter((e) => e.isFile()).map((e) => e.name);
    names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    this.listings.delete(dir);
    if (started - stamp.mtimeMs > stampSettledMs && this.writes === writes) {
      this.listings.set(dir, { stamp, names, checkedAt: started, writes });
      if (this.listings.size > listingsKept) this.listings.delete(this.listings.keys().next().value!);
    }
    return names;
  }

  private async writeMakeFolder(prefix: string): Promise<void> {
    await mkdir(this.folderOf(prefix).dir, { recursive: true });
  }

  async listFolders(prefix: string): Promise<string[]> {
    const { dir } = this.folderOf(prefix);
    const entries = await readdir(dir, { withFileTypes: true }).catch((err) =>
      isMissing(err) ? [] : Promise.reject(err),
    );
    return entries
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
  }

  stagingPath(key: string, suffix: string): string {
    return `${this.locate(key).file}${suffix}`;
  }

  async peerSource(key: string): Promise<{ path: string } | null> {
    const file = (await this.real(key))?.file;
    return file ? { path: file } : null;
  }

  close(): void {
    // Nothing held open.
  }

  async check(): Promise<void> {
    await access(this.filesDir, constants.R_OK | constants.W_OK);
  }
}
