import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { lstat, mkdir, readdir, rename, rm, rmdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { isObjectId } from '@bathylog/shared';
import type { AppContext } from '../../context.js';
import { AppError } from '../../lib/app-error.js';
import type { RecordKind } from '../access/access.repository.js';
import { isSafeName, joinInside, resolveExistingInside } from './safe-path.js';

/** Upload ids answered by the FilePond `process` route: the record id, `_`, 16 random hex digits. */
const uploadIdPattern = /^([0-9a-f]{24})_[0-9a-f]{16}$/;

/** Uploads never committed by a PATCH are swept after this long. */
const staleUploadMs = 24 * 60 * 60 * 1000;

export const maxFilesPerUpload = 5;

/** A too-large upload, raised by the multipart reader; turned into a 413 by the routes. */
export function uploadTooLarge(limitMb: number): AppError {
  return new AppError('PAYLOAD_TOO_LARGE', `File too large: the upload limit is ${limitMb} MB per file`);
}

function isMissing(err: unknown): boolean {
  return (err as NodeJS.ErrnoException)?.code === 'ENOENT';
}

/**
 * The files of cruises and lowerings: one folder per record under the data folder
 * (`files/cruises/<id>/`, `files/lowerings/<id>/`), plus a temporary area for uploads waiting for
 * the PATCH that commits them (docs/wire.md#files). Names are plain file names, checked before use.
 */
export class RecordFilesService {
  constructor(private readonly ctx: AppContext) {}

  root(kind: RecordKind): string {
    return kind === 'cruise' ? this.ctx.paths.cruises : this.ctx.paths.lowerings;
  }

  private uploadRoot(kind: RecordKind): string {
    return path.join(this.ctx.paths.data, 'upload-tmp', `${kind}s`);
  }

  private folder(kind: RecordKind, id: string): string {
    if (!isObjectId(id)) throw new AppError('BAD_REQUEST', `Invalid ${kind} id: ${id}`);
    return path.join(this.root(kind), id);
  }

  /** The record's file names (regular files only), sorted; [] when it has no folder. */
  async list(kind: RecordKind, id: string): Promise<string[]> {
    try {
      const entries = await readdir(this.folder(kind, id), { withFileTypes: true });
      return entries
        .filter((e) => e.isFile())
        .map((e) => e.name)
        .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    } catch (err) {
      if (isMissing(err)) return [];
      throw err;
    }
  }

  async ensureFolder(kind: RecordKind, id: string): Promise<void> {
    await mkdir(this.folder(kind, id), { recursive: true });
  }

  async removeFolder(kind: RecordKind, id: string): Promise<void> {
    await rm(this.folder(kind, id), { recursive: true, force: true });
  }

  /** Empties the folder of every record of a kind (DELETE …/all). */
  async removeAll(kind: RecordKind): Promise<void> {
    const root = this.root(kind);
    const entries = await readdir(root).catch((err) => (isMissing(err) ? [] : Promise.reject(err)));
    for (const name of entries) await rm(path.join(root, name), { recursive: true, force: true });
    await mkdir(root, { recursive: true });
  }

  /**
   * Stores one uploaded file in a fresh temporary folder and answers its upload id. A stream that
   * goes over the size limit fails the pipeline; nothing is left behind then.
   */
  async saveUpload(kind: RecordKind, recordId: string, fileName: string, file: Readable): Promise<string> {
    await this.sweepStaleUploads(kind);
    const uploadId = `${recordId}_${randomBytes(8).toString('hex')}`;
    const dir = path.join(this.uploadRoot(kind), uploadId);
    await mkdir(dir, { recursive: true, mode: 0o750 });
    try {
      await pipeline(file, createWriteStream(path.join(dir, fileName), { flags: 'wx' }));
    } catch (err) {
      await rm(dir, { recursive: true, force: true });
      await this.dropEmptyUploadRoots(kind);
      throw err;
    }
    return uploadId;
  }

  /** Stores files straight into the record's folder (the direct upload route). */
  async saveDirect(kind: RecordKind, recordId: string, fileName: string, file: Readable): Promise<void> {
    await this.ensureFolder(kind, recordId);
    const target = joinInside(this.folder(kind, recordId), [fileName]);
    if (!target) throw new AppError('BAD_REQUEST', `Invalid file name: ${fileName}`);
    const partial = `${target}.${randomBytes(4).toString('hex')}.part`;
    try {
      await pipeline(file, createWriteStream(partial, { flags: 'wx' }));
      await rename(partial, target);
    } catch (err) {
      await rm(partial, { force: true });
      throw err;
    }
  }

  /** Drops an upload that was never committed (FilePond `revert`). Unknown ids are a 400. */
  async revertUpload(kind: RecordKind, uploadId: string): Promise<void> {
    if (!uploadIdPattern.test(uploadId)) throw new AppError('BAD_REQUEST', `Invalid upload id: ${uploadId}`);
    await rm(path.join(this.uploadRoot(kind), uploadId), { recursive: true, force: true });
    await this.dropEmptyUploadRoots(kind);
  }

  /**
   * The temporary folders a first upload created, once empty again: a refused upload leaves nothing
   * behind. An upload starting meanwhile creates them again (`mkdir` recursive), and a folder that
   * is not empty is kept (rmdir refuses).
   */
  private async dropEmptyUploadRoots(kind: RecordKind): Promise<void> {
    for (const dir of [this.uploadRoot(kind), path.dirname(this.uploadRoot(kind))]) {
      try {
        await rmdir(dir);
      } catch {
        return; // not empty, or gone already
      }
    }
  }

  /**
   * Checks the `cruise_files` / `lowering_files` list of a PATCH before anything is written and
   * answers the upload ids to commit. Names of files the record already has are ignored (a
   * client re-sending the list it read); anything else must be an upload made for this record.
   */
  async checkUploads(kind: RecordKind, recordId: string, entries: readonly string[]): Promise<string[]> {
    const existing = new Set(await this.list(kind, recordId));
    const uploadIds: string[] = [];
    for (const entry of entries) {
      const match = uploadIdPattern.exec(entry);
      if (!match) {
        if (existing.has(entry)) continue;
        throw new AppError('BAD_REQUEST', `Unknown upload id: ${entry}`);
      }
      if (match[1] !== recordId) throw new AppError('BAD_REQUEST', `Upload ${entry} was made for another ${kind}`);
      const dir = path.join(this.uploadRoot(kind), entry);
      const info = await lstat(dir).catch(() => null);
      if (!info?.isDirectory()) throw new AppError('BAD_REQUEST', `Upload not found: ${entry}`);
      if (!uploadIds.includes(entry)) uploadIds.push(entry);
    }
    return uploadIds;
  }

  /** Moves checked uploads into the record's folder and drops their temporary folders. */
  async commitUploads(kind: RecordKind, recordId: string, uploadIds: readonly string[]): Promise<string[]> {
    if (uploadIds.length === 0) return [];
    const folder = this.folder(kind, recordId);
    const moved: string[] = [];
    try {
      await mkdir(folder, { recursive: true });
      for (const uploadId of uploadIds) {
        const dir = path.join(this.uploadRoot(kind), uploadId);
        for (const entry of await readdir(dir, { withFileTypes: true })) {
          if (!entry.isFile() || !isSafeName(entry.name)) continue;
          await rename(path.join(dir, entry.name), path.join(folder, entry.name));
          moved.push(entry.name);
        }
        await rm(dir, { recursive: true, force: true });
      }
    } catch (err) {
      this.ctx.log.error({ err, kind, recordId }, 'moving uploaded files failed');
      throw new AppError('SERVICE_UNAVAILABLE', 'Unable to store the uploaded files');
    }
    return moved;
  }

  /** Deletes one file of a record; a file that is not there is fine (204 as in Sealog). True when one went. */
  async deleteFile(kind: RecordKind, recordId: string, name: string): Promise<boolean> {
    const target = joinInside(this.folder(kind, recordId), [name]);
    if (!target) throw new AppError('BAD_REQUEST', `Invalid file name: ${name}`);
    const info = await lstat(target).catch(() => null);
    // Only regular files: never a folder, never through a symlink.
    if (!info?.isFile()) return false;
    await rm(target, { force: true });
    return true;
  }

  /** The real path of a record's file to serve, or null when there is no such regular file. */
  async findFile(kind: RecordKind, recordId: string, name: string): Promise<{ file: string; size: number } | null> {
    return this.findUnder(this.root(kind), [recordId, name]);
  }

  /** A regular file under `root` by safe segments, with symlinks that leave root refused. */
  async findUnder(root: string, segments: readonly string[]): Promise<{ file: string; size: number } | null> {
    const real = await resolveExistingInside(root, segments);
    if (!real) return null;
    const info = await stat(real).catch(() => null);
    return info?.isFile() ? { file: real, size: info.size } : null;
  }

  private async sweepStaleUploads(kind: RecordKind): Promise<void> {
    const root = this.uploadRoot(kind);
    const names = await readdir(root).catch(() => [] as string[]);
    const now = Date.now();
    for (const name of names) {
      const info = await lstat(path.join(root, name)).catch(() => null);
      if (info && now - info.mtimeMs > staleUploadMs) await rm(path.join(root, name), { recursive: true, force: true });
    }
  }
}
