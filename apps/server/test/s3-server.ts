import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { LocalFileStore, S3FileStore, type FileStore } from '../src/storage/index.js';
import { TcpProxy } from './tcp-proxy.js';

/**
 * A real S3-protocol server for tests: s3rver (npm) on a free port, with one bucket, its objects
 * in a temporary folder. It speaks S3's REST protocol and checks the SDK's signatures, so the
 * store is tested over HTTP as against MinIO or AWS, not against a mock of the SDK.
 * (s3rver 3: version 5 of its fork refuses the current SDK's signatures on Node 20.)
 */
export class TestS3Server {
  readonly bucket = 'bathylog-test';
  readonly accessKeyId = 'S3RVER';
  readonly secretAccessKey = 'S3RVER';
  port = 0;
  private server: S3rver | null = null;
  readonly directory = mkdtempSync(path.join(os.tmpdir(), 'bathylog-s3-'));

  async start(): Promise<this> {
    this.server = new S3rver({
      port: this.port,
      address: '127.0.0.1',
      silent: true,
      directory: this.directory,
      configureBuckets: [{ name: this.bucket, configs: [] }],
    });
    const address = await this.server.run();
    this.port = address.port;
    return this;
  }

  get endpoint(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Stops answering (the same port can be started again: the bucket's objects stay). */
  async stop(): Promise<void> {
    await this.server?.close();
    this.server = null;
  }

  async destroy(): Promise<void> {
    await this.stop();
    rmSync(this.directory, { recursive: true, force: true });
  }

  /** The `storage` configuration for this bucket (an endpoint of a proxy in front of it if given). */
  settings(opts: { endpoint?: string; prefix?: string } = {}) {
    return {
      backend: 's3' as const,
      s3: {
        endpoint: opts.endpoint ?? this.endpoint,
        region: 'us-east-1',
        bucket: this.bucket,
        prefix: opts.prefix ?? '',
        pathStyle: true,
        accessKeyId: this.accessKeyId,
        secretAccessKey: this.secretAccessKey,
        credentialsFile: null,
        partSizeMb: 5,
        timeoutSeconds: 5,
      },
    };
  }

  store(dataDir: string, opts: { endpoint?: string; prefix?: string } = {}): S3FileStore {
    return new S3FileStore({
      endpoint: opts.endpoint ?? this.endpoint,
      region: 'us-east-1',
      bucket: this.bucket,
      prefix: opts.prefix ?? '',
      forcePathStyle: true,
      credentials: { accessKeyId: this.accessKeyId, secretAccessKey: this.secretAccessKey },
      stagingDir: path.join(dataDir, 'staging'),
      partSize: 5 * 1024 * 1024,
      timeoutMs: 5000,
    });
  }
}

/** The two file stores every file suite runs on (`describe.each(fileStores)`). */
export const fileStores = ['local', 's3'] as const;
export type StoreKind = (typeof fileStores)[number];

/**
 * A store of the kind for a suite, on a fresh folder or prefix, and its S3 server (started once
 * per suite by the caller) when it is S3.
 */
export function makeStore(kind: StoreKind, dataDir: string, s3: TestS3Server, prefix = ''): FileStore {
  return kind === 'local' ? new LocalFileStore(path.join(dataDir, 'files'), dataDir) : s3.store(dataDir, { prefix });
}

export { TcpProxy };
