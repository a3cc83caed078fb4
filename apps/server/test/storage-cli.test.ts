import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBathylog } from './cli-process.js';
import { TestS3Server } from './s3-server.js';

/**
 * The operator's way between the folder and a bucket (docs/storage.md#moving-files-between-the-folder-and-a-bucket)
 * and backups of a bucket (docs/storage.md#backing-up-the-bucket), with `bathylog` in its own
 * process against a real S3-protocol server.
 */
const root = mkdtempSync(path.join(os.tmpdir(), 'bathylog-storage-cli-'));
const s3 = new TestS3Server();
beforeAll(() => s3.start());
afterAll(async () => {
  await s3.destroy();
  rmSync(root, { recursive: true, force: true });
});

/** Each step starts `bathylog` (a few seconds each on a loaded machine). */
const slow = { timeout: 180_000 };

const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');

function bucketEnv(data: string, prefix: string, storage: 'local' | 's3'): Record<string, string> {
  return {
    BATHYLOG_DATA: data,
    BATHYLOG_ADMIN_PASSWORD: 'first-password',
    BATHYLOG_STORAGE: storage,
    BATHYLOG_S3_ENDPOINT: s3.endpoint,
    BATHYLOG_S3_BUCKET: s3.bucket,
    BATHYLOG_S3_PREFIX: prefix,
    BATHYLOG_S3_PATH_STYLE: 'true',
    BATHYLOG_S3_ACCESS_KEY_ID: s3.accessKeyId,
    BATHYLOG_S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
  };
}

/** The files a ship's folder holds. */
const shipFiles = new Map<string, Buffer>([
  ['images/SuBastian.20230314_234516.jpg', randomBytes(40_000)],
  ['images/.thumbnails/160/SuBastian.20230314_234516.jpg.jpg', randomBytes(3_000)],
  ['cruises/64a1f0c2b7e4d5a6c7b8a900/cruise plan.pdf', randomBytes(7 * 1024 * 1024)],
  ['lowerings/64a1f0c2b7e4d5a6c7b8a902/dive log.txt', Buffer.from('S0492 dive log\n')],
]);

describe('bathylog storage-migrate, backup and restore with a bucket', () => {
  const ship = path.join(root, 'ship');

  it('moves a folder into the bucket, verified, and a second run copies nothing', slow, async () => {
    const env = bucketEnv(ship, 'ship/', 'local');
    // A data folder as a ship has it (the server made it: database, folders), with its files.
    expect((await runBathylog(['user', 'create', '--username', 'pilot', '--password', 'x'], env)).code).toBe(0);
    for (const [key, body] of shipFiles) {
      const file = path.join(ship, 'files', ...key.split('/'));
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, body);
    }
    const moved = await runBathylog(['storage-migrate', '--to', 's3'], env);
    expect(moved.stderr).toContain('Copying files to s3://bathylog-test/ship/: 4/4');
    expect(moved.stdout).toMatch(
      /^4 files in .*: 4 copied and verified, 0 already in s3:\/\/bathylog-test\/ship\/, 0 replaced, 0 failed/,
    );
    expect(moved.code).toBe(0);
    const report = JSON.parse(readFileSync(path.join(ship, 'storage-migrate', 'report-s3.json'), 'utf8')) as {
      copied: number;
      bytesCopied: number;
    };
    expect(report.copied).toBe(4);
    expect(report.bytesCopied).toBe([...shipFiles.values()].reduce((n, b) => n + b.length, 0));
    const bucket = s3.store(ship, { prefix: 'ship/' });
    for (const [key, body] of shipFiles) expect(sha((await bucket.readBuffer(key))!)).toBe(sha(body));
    bucket.close();

    const again = await runBathylog(['storage-migrate', '--to', 's3'], env);
    expect(again.stdout).toContain('0 copied and verified, 4 already in');
    // The folder is left as it was.
    expect(existsSync(path.join(ship, 'files', 'lowerings', '64a1f0c2b7e4d5a6c7b8a902', 'dive log.txt'))).toBe(true);

    const usage = await runBathylog(['storage-migrate', '--to', 'ftp'], env);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('--to must be s3 or local');
  });

  it(
    'backs up the bucket with the database and restores it into an empty prefix, refusing a full one',
    slow,
    async () => {
      const env = bucketEnv(ship, 'ship/', 's3');
      const backup = path.join(root, 'backup');
      const made = await runBathylog(['backup', backup], env);
      expect(made.code).toBe(0);
      const manifest = JSON.parse(readFileSync(path.join(backup, 'manifest.json'), 'utf8')) as {
        files: Array<{ path: string; sha256: string }>;
      };
      for (const [key, body] of shipFiles) {
        expect(manifest.files.find((f) => f.path === `files/${key}`)?.sha256).toBe(sha(body));
      }

      const shore = path.join(root, 'shore');
      const restored = await runBathylog(['restore', backup], bucketEnv(shore, 'shore/', 's3'));
      expect(restored.code).toBe(0);
      const bucket = s3.store(shore, { prefix: 'shore/' });
      for (const [key, body] of shipFiles) expect(sha((await bucket.readBuffer(key))!)).toBe(sha(body));
      bucket.close();
      // The files went to the bucket, not into the data folder.
      expect(existsSync(path.join(shore, 'files', 'images', 'SuBastian.20230314_234516.jpg'))).toBe(false);

      const full = await runBathylog(['restore', backup], bucketEnv(path.join(root, 'shore2'), 'shore/', 's3'));
      expect(full.code).toBe(1);
      expect(full.stderr).toContain('The bucket s3://bathylog-test/shore/ already holds files');
    },
  );

  it('moves a bucket back into a folder, and masks the secret key in `config`', slow, async () => {
    const back = path.join(root, 'back');
    const env = bucketEnv(back, 'shore/', 'local');
    expect((await runBathylog(['user', 'create', '--username', 'pilot', '--password', 'x'], env)).code).toBe(0);
    const moved = await runBathylog(['storage-migrate', '--to', 'local'], env);
    expect(moved.code).toBe(0);
    for (const [key, body] of shipFiles) {
      expect(sha(readFileSync(path.join(back, 'files', ...key.split('/'))))).toBe(sha(body));
    }
    const config = await runBathylog(['config'], env);
    expect(config.stdout).toContain('"secretAccessKey": "***"');
  });
});
