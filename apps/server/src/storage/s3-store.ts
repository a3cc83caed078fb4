import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type * as S3 from '@aws-sdk/client-s3';
import type * as LibStorage from '@aws-sdk/lib-storage';
import type * as Presigner from '@aws-sdk/s3-request-presigner';
import { lazyPackage } from '../lib/lazy-package.js';
import { AppError } from '../lib/app-error.js';
import {
  byKey,
  checkedKey,
  checkedPrefix,
  storeUnavailable,
  type ByteRange,
  type FileStore,
  type StoredFile,
} from './file-store.js';

/** The AWS SDK's parts, loaded when a bucket is opened: an installation on a folder never loads them. */
const s3Sdk = lazyPackage<typeof S3>('@aws-sdk/client-s3');
const libStorage = lazyPackage<typeof LibStorage>('@aws-sdk/lib-storage');
const presigner = lazyPackage<typeof Presigner>('@aws-sdk/s3-request-presigner');

export interface S3StoreOptions {
  /** `https://s3.example.org` (MinIO, Ceph, Garage …); null for AWS itself. */
  endpoint: string | null;
  region: string;
  bucket: string;
  /** Prepended to every key (`fleet/`); '' for the bucket's root. */
  prefix: string;
  /** Path-style addressing (`endpoint/bucket/key`), as MinIO and most self-hosted servers need. */
  forcePathStyle: boolean;
  /** Static credentials; null: the AWS SDK's own chain (AWS_ACCESS_KEY_ID …, AWS_SHARED_CREDENTIALS_FILE, roles). */
  credentials: { accessKeyId: string; secretAccessKey: string; sessionToken?: string } | null;
  /** Local folder where resumable downloads are assembled before they go to the bucket. */
  stagingDir: string;
  /** Multipart part size in bytes (S3's minimum is 5 MiB); a body smaller than one part is one PUT. */
  partSize?: number;
  /** A request that connects or answers slower than this fails (ms). */
  timeoutMs?: number;
  /** Told of each failure that becomes a 503 (the error has no credentials in it). */
  onFailure?: (failure: ReturnType<typeof describeFailure>, operation: string) => void;
}

/** S3 copies one object of at most 5 GiB in one request; larger ones are streamed. */
const maxCopyBytes = 5 * 1024 * 1024 * 1024;

function statusOf(err: unknown): number | undefined {
  return (err as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode;
}

function isNotFound(err: unknown): boolean {
  const name = (err as { name?: string })?.name;
  return name === 'NotFound' || name === 'NoSuchKey' || statusOf(err) === 404;
}

/**
 * What a log may say of a failed request: its name, code, status and message. Never the SDK's
 * error object itself, which carries the request (and its signature) along.
 */
export function describeFailure(err: unknown): { name: string; code?: string; status?: number; message: string } {
  const e = err as { name?: string; code?: string; Code?: string; message?: string };
  const code = e?.code ?? e?.Code;
  const status = statusOf(err);
  return {
    name: e?.name ?? 'Error',
    ...(code ? { code } : {}),
    ...(status ? { status } : {}),
    message: String(e?.message ?? err).slice(0, 300),
  };
}

/**
 * `bucket/key` for CopySource: URL-encoded, the slashes kept, and the sub-delimiters that a path
 * may hold as they are (`+`, `,`, `;`, `=`, `:`, `@`, `&`, `$`): every S3 server decodes those
 * alike, while some decode an encoded `+` as the text `%2B`.
 */
function copySource(bucket: string, key: string): string {
  const encode = (segment: string) =>
    encodeURIComponent(segment).replace(/%(2B|2C|3B|3D|3A|40|26|24)/g, (m) => decodeURIComponent(m));
  return `${bucket}/${key.split('/').map(encode).join('/')}`;
}

/**
 * An S3-compatible bucket (AWS, MinIO, Ceph, Garage, …) through the AWS SDK. Objects are
 * `<prefix><key>`. Writes are atomic by S3's own rules: a PUT or a completed multipart upload
 * appears whole or not at all, and a failed multipart upload is aborted, so a half-written file
 * is never visible. The bucket is never made public: the server reads it and serves each file
 * after its own access checks.
 */
export class S3FileStore implements FileStore {
  readonly kind = 's3' as const;
  readonly description: string;
  private readonly client: S3.S3Client;
  private readonly sdk = s3Sdk();
  private readonly bucket: string;
  private readonly prefix: string;
  private readonly partSize: number;

  constructor(private readonly opts: S3StoreOptions) {
    this.bucket = opts.bucket;
    this.prefix = opts.prefix;
    this.partSize = Math.max(5 * 1024 * 1024, opts.partSize ?? 8 * 1024 * 1024);
    this.description = `s3://${opts.bucket}/${opts.prefix}`;
    const timeout = opts.timeoutMs ?? 30_000;
    this.client = new this.sdk.S3Client({
      region: opts.region,
      ...(opts.endpoint ? { endpoint: opts.endpoint } : {}),
      forcePathStyle: opts.forcePathStyle,
      ...(opts.credentials ? { credentials: opts.credentials } : {}),
      // Checksums only where S3 requires them: many S3-compatible servers refuse the SDK's
      // default trailing checksums. Integrity is checked end to end by sha256 where it matters
      // (`bathylog storage-migrate`, files from a ship, backups).
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: 3,
      requestHandler: { connectionTimeout: Math.min(timeout, 5000), requestTimeout: timeout },
    });
  }

  private full(key: string): string {
    return this.prefix + checkedKey(key);
  }

  /** A failure the caller cannot act on (unreachable, refused, 5xx) as the store's one 503. */
  private fail(err: unknown, operation: string): never {
    if (err instanceof AppError) throw err;
    this.opts.onFailure?.(describeFailure(err), operation);
    throw storeUnavailable();
  }

  async stat(key: string): Promise<StoredFile | null> {
    try {
      const res = await this.client.send(new this.sdk.HeadObjectCommand({ Bucket: this.bucket, Key: this.full(key) }));
      return { key, size: Number(res.ContentLength ?? 0), mtimeMs: res.LastModified?.getTime() ?? 0 };
    } catch (err) {
      if (isNotFound(err)) return null;
      this.fail(err, 'stat');
    }
  }

  async read(key: string, range?: ByteRange): Promise<Readable | null> {
    try {
      const res = await this.client.send(
        new this.sdk.GetObjectCommand({
          Bucket: this.bucket,
          Key: this.full(key),
          ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
        }),
      );
      return res.Body as Readable;
    } catch (err) {
      if (isNotFound(err)) return null;
      this.fail(err, 'read');
    }
  }

  async readBuffer(key: string): Promise<Buffer | null> {
    try {
      const res = await this.client.send(new this.sdk.GetObjectCommand({ Bucket: this.bucket, Key: this.full(key) }));
      return Buffer.from(await res.Body!.transformToByteArray());
    } catch (err) {
      if (isNotFound(err)) return null;
      this.fail(err, 'read');
    }
  }

  async put(key: string, body: Readable | Buffer, opts: { contentType?: string } = {}): Promise<void> {
    const params = {
      Bucket: this.bucket,
      Key: this.full(key),
      ...(opts.contentType ? { ContentType: opts.contentType } : {}),
    };
    if (Buffer.isBuffer(body)) {
      try {
        await this.client.send(new this.sdk.PutObjectCommand({ ...params, Body: body }));
      } catch (err) {
        this.fail(err, 'put');
      }
      return;
    }
    // Parts of `partSize` go up two at a time: at most two parts are in memory, whatever the
    // file's size. A body that fails (the client's upload cut, a size limit, the bucket gone)
    // aborts the multipart upload, so no part of it stays.
    const source = new SourceErrors(body);
    const upload = new (libStorage().Upload)({
      client: this.client,
      params: { ...params, Body: source.stream },
      partSize: this.partSize,
      queueSize: 2,
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (err) {
      // The body's own error (a limit, a cut upload) is the caller's to answer, not the store's.
      if (source.error) throw source.error;
      this.fail(err, 'put');
    }
  }

  async putFile(key: string, localPath: string): Promise<void> {
    await this.put(key, createReadStream(localPath));
    await rm(localPath, { force: true });
  }

  async move(from: string, to: string): Promise<void> {
    const found = await this.stat(from);
    if (!found) throw new Error(`No such file: ${from}`);
    if (found.size > maxCopyBytes) {
      const body = await this.read(from);
      if (!body) throw new Error(`No such file: ${from}`);
      await this.put(to, body);
    } else {
      try {
        await this.client.send(
          new this.sdk.CopyObjectCommand({
            Bucket: this.bucket,
            Key: this.full(to),
            CopySource: copySource(this.bucket, this.full(from)),
          }),
        );
      } catch (err) {
        this.fail(err, 'copy');
      }
    }
    await this.delete(from);
  }

  async delete(key: string): Promise<boolean> {
    const found = await this.stat(key);
    if (!found) return false;
    try {
      await this.client.send(new this.sdk.DeleteObjectCommand({ Bucket: this.bucket, Key: this.full(key) }));
    } catch (err) {
      this.fail(err, 'delete');
    }
    return true;
  }

  async deletePrefix(prefix: string): Promise<void> {
    const keys = (await this.list(prefix, { recursive: true })).map((f) => this.full(f.key));
    for (let i = 0; i < keys.length; i += 1000) {
      const batch = keys.slice(i, i + 1000);
      try {
        const res = await this.client.send(
          new this.sdk.DeleteObjectsCommand({
            Bucket: this.bucket,
            Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
          }),
        );
        if (res.Errors && res.Errors.length > 0) throw new Error(`${res.Errors.length} objects were not deleted`);
      } catch (err) {
        this.fail(err, 'delete');
      }
    }
  }

  private async *pages(
    prefix: string,
    delimiter: boolean,
    startsWith = '',
  ): AsyncGenerator<S3.ListObjectsV2CommandOutput> {
    if (startsWith.includes('/')) throw new AppError('BAD_REQUEST', 'Invalid file path');
    let token: string | undefined;
    do {
      let page: S3.ListObjectsV2CommandOutput;
      try {
        page = await this.client.send(
          new this.sdk.ListObjectsV2Command({
            Bucket: this.bucket,
            Prefix: this.prefix + checkedPrefix(prefix) + startsWith,
            ...(delimiter ? { Delimiter: '/' } : {}),
            ...(token ? { ContinuationToken: token } : {}),
          }),
        );
      } catch (err) {
        this.fail(err, 'list');
      }
      yield page;
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async list(prefix: string, opts: { recursive?: boolean; startsWith?: string } = {}): Promise<StoredFile[]> {
    const out: StoredFile[] = [];
    for await (const page of this.pages(prefix, !opts.recursive, opts.startsWith)) {
      for (const item of page.Contents ?? []) {
        if (!item.Key?.startsWith(this.prefix)) continue;
        out.push({
          key: item.Key.slice(this.prefix.length),
          size: Number(item.Size ?? 0),
          mtimeMs: item.LastModified?.getTime() ?? 0,
        });
      }
    }
    return out.sort(byKey);
  }

  async names(prefix: string): Promise<string[]> {
    return (await this.list(prefix)).map((f) => f.key.slice(prefix.length));
  }

  async makeFolder(prefix: string): Promise<void> {
    checkedPrefix(prefix);
  }

  async listFolders(prefix: string): Promise<string[]> {
    const full = this.prefix + checkedPrefix(prefix);
    const out: string[] = [];
    for await (const page of this.pages(prefix, true)) {
      for (const p of page.CommonPrefixes ?? []) {
        const name = p.Prefix?.slice(full.length, -1);
        if (name) out.push(name);
      }
    }
    return out.sort();
  }

  async peerSource(key: string, ttlSeconds: number): Promise<{ url: string }> {
    // Signing asks nothing of the bucket; the caller has found the file with stat().
    try {
      const get = new this.sdk.GetObjectCommand({ Bucket: this.bucket, Key: this.full(key) });
      return { url: await presigner().getSignedUrl(this.client, get, { expiresIn: ttlSeconds }) };
    } catch (err) {
      this.fail(err, 'sign');
    }
  }

  stagingPath(key: string, suffix: string): string {
    return path.join(this.opts.stagingDir, createHash('sha256').update(checkedKey(key)).digest('hex') + suffix);
  }

  async check(): Promise<void> {
    // One HEAD of a key that need not exist: a 404 is an answer from the bucket with the
    // credentials accepted; a refusal (403), a 5xx or no answer is a failure.
    try {
      await this.client.send(
        new this.sdk.HeadObjectCommand({ Bucket: this.bucket, Key: `${this.prefix}.bathylog-check` }),
      );
    } catch (err) {
      if (isNotFound(err)) return;
      this.fail(err, 'check');
    }
  }

  close(): void {
    this.client.destroy();
  }
}

/**
 * The body of an upload, with its own error kept: lib-storage reports a failing body as its own
 * failure, and the caller must learn that it was the body (a size limit → 413, not a 503).
 */
class SourceErrors {
  error: unknown = null;
  readonly stream: Readable;
  constructor(body: Readable) {
    body.once('error', (err) => {
      // The upload aborting destroys its body with an AbortError: that one is the store's.
      if ((err as Error)?.name !== 'AbortError') this.error ??= err;
    });
    this.stream = body;
  }
}
