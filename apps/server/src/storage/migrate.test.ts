import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TestS3Server } from '../../test/s3-server.js';
import { LocalFileStore } from './local-store.js';
import { migrateFiles } from './migrate.js';
import type { FileStore } from './file-store.js';

const s3 = new TestS3Server();
beforeAll(() => s3.start());
afterAll(() => s3.destroy());

async function sha(store: FileStore, key: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const c of (await store.read(key))!) hash.update(c as Buffer);
  return hash.digest('hex');
}

/** A data folder as a ship has it: frame grabs, a thumbnail, cruise and lowering files, a recording's proxy. */
function seedFolder(dataDir: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (let i = 0; i < 12; i++) files.set(`images/grab-${String(i).padStart(3, '0')}.jpg`, randomBytes(2000 + i));
  files.set('images/.thumbnails/160/grab-000.jpg.jpg', randomBytes(300));
  files.set('cruises/0123456789abcdef01234567/report.pdf', randomBytes(6 * 1024 * 1024 + 3));
  files.set('lowerings/0123456789abcdef01234568/dive log ü.txt', Buffer.from('dive log'));
  files.set('recordings/0123456789abcdef01234569/0123456789abcdef0123456a.mp4', randomBytes(9 * 1024 * 1024 + 7));
  for (const [key, body] of files) {
    const file = path.join(dataDir, 'files', ...key.split('/'));
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, body);
  }
  return files;
}

describe('bathylog storage-migrate (migrateFiles)', () => {
  let dataDir: string;
  let local: LocalFileStore;
  let bucket: FileStore;
  let n = 0;

  beforeEach(() => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'bathylog-migrate-'));
    local = new LocalFileStore(path.join(dataDir, 'files'), dataDir);
    bucket = s3.store(dataDir, { prefix: `m${n++}/` });
    return () => {
      bucket.close();
      rmSync(dataDir, { recursive: true, force: true });
    };
  });

  it('copies the folder into the bucket, verified, and resumes after an interruption', async () => {
    const files = seedFolder(dataDir);
    const journal = path.join(dataDir, 'storage-migrate', 'journal-s3.jsonl');
    // The first run stops after five files (Ctrl-C, a cut link).
    const interrupted = await migrateFiles({
      source: local,
      target: bucket,
      journal,
      onFile: (done) => {
        if (done === 5) throw new Error('interrupted');
      },
    }).catch((err: Error) => err);
    expect(interrupted).toBeInstanceOf(Error);
    expect(readFileSync(journal, 'utf8').trim().split('\n')).toHaveLength(5);

    const report = await migrateFiles({ source: local, target: bucket, journal });
    expect(report).toMatchObject({ files: files.size, copied: files.size - 5, alreadyThere: 5, replaced: 0 });
    expect(report.failed).toEqual([]);
    for (const [key, body] of files) {
      expect(await sha(bucket, key)).toBe(createHash('sha256').update(body).digest('hex'));
    }
    // The source is left as it was.
    expect((await local.list('images/', { recursive: true })).length).toBe(13);

    // A third run copies nothing.
    const again = await migrateFiles({ source: local, target: bucket, journal });
    expect(again).toMatchObject({ copied: 0, alreadyThere: files.size });
  });

  it('replaces a copy whose content differs, found by checksum', async () => {
    seedFolder(dataDir);
    const journal = path.join(dataDir, 'storage-migrate', 'journal-s3.jsonl');
    await migrateFiles({ source: local, target: bucket, journal });
    // A file in the bucket damaged (same size, other bytes), and no journal to trust.
    await bucket.put('images/grab-003.jpg', randomBytes(2003));
    rmSync(journal);
    const report = await migrateFiles({ source: local, target: bucket, journal });
    expect(report).toMatchObject({ replaced: 1, copied: 0 });
    expect(await sha(bucket, 'images/grab-003.jpg')).toBe(await sha(local, 'images/grab-003.jpg'));
  });

  it('copies a bucket back into an empty folder', async () => {
    const files = seedFolder(dataDir);
    await migrateFiles({ source: local, target: bucket, journal: path.join(dataDir, 'j-s3.jsonl') });
    const back = mkdtempSync(path.join(os.tmpdir(), 'bathylog-migrate-back-'));
    try {
      const target = new LocalFileStore(path.join(back, 'files'), back);
      const report = await migrateFiles({
        source: bucket,
        target,
        journal: path.join(back, 'j-local.jsonl'),
      });
      expect(report).toMatchObject({ files: files.size, copied: files.size, failed: [] });
      for (const [key, body] of files) {
        const copied = readFileSync(path.join(back, 'files', ...key.split('/')));
        expect(createHash('sha256').update(copied).digest('hex')).toBe(createHash('sha256').update(body).digest('hex'));
      }
    } finally {
      rmSync(back, { recursive: true, force: true });
    }
  });

  it('reports the files it could not copy when the bucket goes away, and copies them on the next run', async () => {
    const files = seedFolder(dataDir);
    const journal = path.join(dataDir, 'journal.jsonl');
    const down = s3.store(dataDir, { endpoint: 'http://127.0.0.1:9', prefix: `m${n++}/` });
    const failed = await migrateFiles({ source: local, target: down, journal });
    down.close();
    expect(failed.failed).toHaveLength(files.size);
    expect(failed.failed[0]!.reason).toBe('The file store is not reachable at the moment; try again later');
    const report = await migrateFiles({ source: local, target: bucket, journal });
    expect(report).toMatchObject({ copied: files.size, failed: [] });
  });
});
