import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { FileStore } from './file-store.js';
import { LocalFileStore } from './local-store.js';
import { S3FileStore } from './s3-store.js';

export type { ByteRange, FileStore, StoredFile } from './file-store.js';
export { checkedKey, storeKey, storeUnavailable, storedAreas } from './file-store.js';
export { parseRange, sendStoredRange } from './http-range.js';
export { LocalFileStore } from './local-store.js';
export { S3FileStore } from './s3-store.js';

/** The `storage` part of the configuration (config.ts), as the store needs it. */
export interface StorageSettings {
  backend: 'local' | 's3';
  s3: {
    endpoint: string | null;
    region: string;
    bucket: string | null;
    prefix: string;
    pathStyle: boolean;
    accessKeyId: string | null;
    secretAccessKey: string | null;
    credentialsFile: string | null;
    partSizeMb: number;
    timeoutSeconds: number;
  };
}

export class StorageConfigError extends Error {}

/** Static credentials from the settings or their file; null lets the AWS SDK find its own. */
function credentialsOf(s3: StorageSettings['s3']): { accessKeyId: string; secretAccessKey: string } | null {
  if (s3.credentialsFile) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(s3.credentialsFile, 'utf8'));
    } catch (err) {
      // The file's name, never its content.
      const reason = (err as NodeJS.ErrnoException).code ?? 'not JSON';
      throw new StorageConfigError(`storage.s3.credentialsFile ${s3.credentialsFile} cannot be read (${reason})`);
    }
    const { accessKeyId, secretAccessKey } = (parsed ?? {}) as Record<string, unknown>;
    if (typeof accessKeyId !== 'string' || typeof secretAccessKey !== 'string' || !accessKeyId || !secretAccessKey) {
      throw new StorageConfigError(
        `storage.s3.credentialsFile ${s3.credentialsFile} must hold {"accessKeyId": "…", "secretAccessKey": "…"}`,
      );
    }
    return { accessKeyId, secretAccessKey };
  }
  if (s3.accessKeyId || s3.secretAccessKey) {
    if (!s3.accessKeyId || !s3.secretAccessKey) {
      throw new StorageConfigError('storage.s3.accessKeyId and storage.s3.secretAccessKey go together');
    }
    return { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey };
  }
  return null;
}

/**
 * The file store the configuration names. `dataDir` holds the local folder (`files/`, and
 * `upload-tmp/` for pending uploads); with S3 it keeps only the staging folder of downloads from
 * a ship being assembled.
 */
export function createFileStore(
  settings: StorageSettings,
  dataDir: string,
  onFailure?: (err: unknown, operation: string) => void,
): FileStore {
  if (settings.backend === 'local') return new LocalFileStore(path.join(dataDir, 'files'), dataDir);
  const { s3 } = settings;
  if (!s3.bucket) throw new StorageConfigError('storage.s3.bucket is required when storage.backend is s3');
  return new S3FileStore({
    endpoint: s3.endpoint,
    region: s3.region,
    bucket: s3.bucket,
    prefix: s3.prefix,
    forcePathStyle: s3.pathStyle,
    credentials: credentialsOf(s3),
    stagingDir: path.join(dataDir, 'staging'),
    partSize: Math.round(s3.partSizeMb * 1024 * 1024),
    timeoutMs: s3.timeoutSeconds * 1000,
    ...(onFailure ? { onFailure } : {}),
  });
}
