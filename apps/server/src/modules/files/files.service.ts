import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { isObjectId } from '@bathylog/shared';
import type { AppContext } from '../../context.js';
import { AppError } from '../../lib/app-error.js';
import { storeKey, type StoredFile } from '../../storage/index.js';
import type { RecordKind } from '../access/access.repository.js';
import { isSafeName } from './safe-path.js';

/** Upload ids answered by the FilePond `process` route: the record id, `_`, 16 random hex digits. */
const uploadIdPattern = /^([0-9a-f]{24})_[0-9a-f]{16}$/;

/** Uploads never committed by a PATCH are swept after this long. */
const staleUploadMs = 24 * 60 * 60 * 1000;

export const maxFilesPerUpload = 5;

/** A too-large upload, raised by the multipart reader; turned into a 413 by the routes. */
export function uploadTooLarge(limitMb: number): AppError {
  return new AppError('PAYLOAD_TOO_LARGE', `File too large: the upload limit is ${limitMb} MB per file`);
}

/**
 * The files of cruises and lowerings: one folder per record in the file store
 * (`cruises/<id>/`, `lowerings/<id>/`), plus a temporary area for uploads waiting for the PATCH
 * that commits them (docs/wire.md#files). Names are plain file names, checked before use.
 */
export class RecordFilesService {
  constructor(private readonly ctx: AppContext) {}

  private area(kind: RecordKind): string {
    return `${kind}s`;
  }

  private uploadPrefix(kind: RecordKind): string {
    return `upload-tmp/${kind}s/`;
  }

  private folder(kind: RecordKind, id: string): string {
    if (!isObjectId(id)) throw new AppError('BAD_REQUEST', `Invalid ${kind} id: ${id}`);
    return `${this.area(kind)}/${id}/`;
  }

  private fileKey(kind: RecordKind, id: string, name: string): string {
    if (!isSafeName(name)) throw new AppError('BAD_REQUEST', `Invalid file name: ${name}`);
    return this.folder(kind, id) + storeKey(name);
  }

  /** The record's file names (regular files only), sorted; [] when it has none. */
  async list(kind: RecordKind, id: string): Promise<string[]> {
    return this.ctx.store.names(this.folder(kind, id));
  }

  /**
   * The record's file names for its wire form: [] (and a warning) while the file store cannot be
   * reached, so cruises and lowerings stay readable when only the bucket is down.
   */
  async listForDisplay(kind: RecordKind, id: string): Promise<string[]> {
    try {
      return await this.list(kind, id);
    } catch (err) {
      if (!(err instanceof AppError) || err.statusCode !== 503) throw err;
      this.ctx.log.warn({ kind, id }, 'the file store is not reachable: the record is shown without its files');
      return [];
    }
  }

  async ensureFolder(kind: RecordKind, id: string): Promise<void> {
    await this.ctx.store.makeFolder(this.folder(kind, id));
  }

  async removeFolder(kind: RecordKind, id: string): Promise<void> {
    await this.ctx.store.deletePrefix(this.folder(kind, id));
  }

  /** Empties the folder of every record of a kind (DELETE …/all). */
  async removeAll(kind: RecordKind): Promise<void> {
    await this.ctx.store.deletePrefix(`${this.area(kind)}/`);
  }

  /**
   * Stores one uploaded file in a fresh temporary folder and answers its upload id. A stream that
   * goes over the size limit fails the store's write; nothing is left behind then.
   */
  async saveUpload(kind: RecordKind, recordId: string, fileName: string, file: Readable): Promise<string> {
    await this.sweepStaleUploads(kind);
    const uploadId = `${recordId}_${randomBytes(8).toString('hex')}`;
    const folder = `${this.uploadPrefix(kind)}${uploadId}/`;
    try {
      await this.ctx.store.put(folder + storeKey(fileName), file);
    } catch (err) {
      await this.ctx.store.deletePrefix(folder).catch(() => undefined);
      throw err;
    }
    return uploadId;
  }

  /** Drops an upload that was never committed (FilePond `revert`). Unknown ids are a 400. */
  async revertUpload(kind: RecordKind, uploadId: string): Promise<void> {
    if (!uploadIdPattern.test(uploadId)) throw new AppError('BAD_REQUEST', `Invalid upload id: ${uploadId}`);
    await this.ctx.store.deletePrefix(`${this.uploadPrefix(kind)}${uploadId}/`);
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
      const held = await this.ctx.store.list(`${this.uploadPrefix(kind)}${entry}/`);
      if (held.length === 0) throw new AppError('BAD_REQUEST', `Upload not found: ${entry}`);
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
      for (const uploadId of uploadIds) {
        const uploadFolder = `${this.uploadPrefix(kind)}${uploadId}/`;
        for (const entry of await this.ctx.store.list(uploadFolder)) {
          const name = entry.key.slice(uploadFolder.length);
          if (!isSafeName(name) || name.startsWith('.')) continue;
          await this.ctx.store.move(entry.key, folder + name);
          moved.push(name);
        }
        await this.ctx.store.deletePrefix(uploadFolder);
      }
    } catch (err) {
      this.ctx.log.error(
        { err: err instanceof AppError ? err.message : err, kind, recordId },
        'moving uploaded files failed',
      );
      throw new AppError('SERVICE_UNAVAILABLE', 'Unable to store the uploaded files');
    }
    return moved;
  }

  /** Deletes one file of a record; a file that is not there is fine (204 as in Sealog). True when one went. */
  async deleteFile(kind: RecordKind, recordId: string, name: string): Promise<boolean> {
    return this.ctx.store.delete(this.fileKey(kind, recordId, name));
  }

  /** A record's file to serve, or null when there is no such regular file. */
  async findFile(kind: RecordKind, recordId: string, name: string): Promise<StoredFile | null> {
    return this.ctx.store.stat(this.fileKey(kind, recordId, name));
  }

  /** An image (frame grab or attachment) by its path under the image folder, or null. */
  async findImage(segments: readonly string[]): Promise<StoredFile | null> {
    return this.ctx.store.stat(storeKey('images', ...segments));
  }

  private async sweepStaleUploads(kind: RecordKind): Promise<void> {
    const prefix = this.uploadPrefix(kind);
    const now = Date.now();
    const stale = new Set<string>();
    for (const file of await this.ctx.store.list(prefix, { recursive: true })) {
      if (now - file.mtimeMs > staleUploadMs) stale.add(file.key.slice(prefix.length).split('/')[0]!);
    }
    for (const uploadId of stale) await this.ctx.store.deletePrefix(`${prefix}${uploadId}/`);
  }
}
