import { createHash, randomBytes } from 'node:crypto';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  renameSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fileStores, makeStore, TestS3Server } from '../../test/s3-server.js';
import { waitUntil } from '../../test/ship-and-shore.js';
import type { FileStore } from './file-store.js';
import { parseRange } from './http-range.js';

async function text(stream: Readable | null): Promise<string | null> {
  if (!stream) return null;
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** A body of `size` bytes that fails after `failAfter` of them (a client's upload cut short). */
function failingBody(size: number, failAfter: number): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= failAfter) {
        this.destroy(new Error('upload cut short'));
        return;
      }
      const n = Math.min(1024 * 1024, size - sent);
      sent += n;
      this.push(randomBytes(n));
    },
  });
}

const s3 = new TestS3Server();
beforeAll(() => s3.start());
afterAll(() => s3.destroy());

describe.each(fileStores)('the %s file store', (kind) => {
  let dataDir: string;
  let store: FileStore;
  let n = 0;

  beforeEach(() => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'bathylog-store-'));
    // Each test on a prefix of its own in the one bucket.
    store = makeStore(kind, dataDir, s3, `t${n++}/`);
    return () => {
      store.close();
      rmSync(dataDir, { recursive: true, force: true });
    };
  });

  it('stores, reads back whole and by range, lists, moves and deletes', async () => {
    await store.put('cruises/0123456789abcdef01234567/report.txt', Buffer.from('0123456789'));
    await store.put('cruises/0123456789abcdef01234567/plan ü+1.txt', Readable.from([Buffer.from('plan')]));
    const found = await store.stat('cruises/0123456789abcdef01234567/report.txt');
    expect(found).toMatchObject({ key: 'cruises/0123456789abcdef01234567/report.txt', size: 10 });
    expect(await text(await store.read('cruises/0123456789abcdef01234567/report.txt'))).toBe('0123456789');
    expect(await text(await store.read('cruises/0123456789abcdef01234567/report.txt', { start: 2, end: 5 }))).toBe(
      '2345',
    );
    expect((await store.readBuffer('cruises/0123456789abcdef01234567/plan ü+1.txt'))?.toString()).toBe('plan');
    expect((await store.list('cruises/0123456789abcdef01234567/')).map((f) => f.key)).toEqual([
      'cruises/0123456789abcdef01234567/plan ü+1.txt',
      'cruises/0123456789abcdef01234567/report.txt',
    ]);
    expect(await store.listFolders('cruises/')).toEqual(['0123456789abcdef01234567']);
    expect((await store.list('cruises/')).length).toBe(0);
    expect((await store.list('cruises/', { recursive: true })).length).toBe(2);

    await store.move(
      'cruises/0123456789abcdef01234567/plan ü+1.txt',
      'lowerings/0123456789abcdef01234568/plan ü+1.txt',
    );
    expect(await store.stat('cruises/0123456789abcdef01234567/plan ü+1.txt')).toBeNull();
    expect(await text(await store.read('lowerings/0123456789abcdef01234568/plan ü+1.txt'))).toBe('plan');

    expect(await store.delete('cruises/0123456789abcdef01234567/report.txt')).toBe(true);
    expect(await store.delete('cruises/0123456789abcdef01234567/report.txt')).toBe(false);
    await store.deletePrefix('lowerings/0123456789abcdef01234568/');
    expect(await store.list('lowerings/', { recursive: true })).toEqual([]);
    expect(await store.read('lowerings/0123456789abcdef01234568/plan ü+1.txt')).toBeNull();
  });

  it('lists only the names that start with a given text', async () => {
    for (const name of ['aaa_1.jpg', 'aaa_2.jpg', 'bbb_1.jpg']) await store.put(`images/${name}`, Buffer.from(name));
    expect((await store.list('images/', { startsWith: 'aaa_' })).map((f) => f.key)).toEqual([
      'images/aaa_1.jpg',
      'images/aaa_2.jpg',
    ]);
  });

  it('names the files directly in a folder as they are listed; none for a folder that does not exist', async () => {
    const folder = 'cruises/0123456789abcdef01234567/';
    expect(await store.names(folder)).toEqual([]);
    for (const name of ['b.txt', 'a ü.txt', 'sub/c.txt']) await store.put(folder + name, Buffer.from(name));
    expect(await store.names(folder)).toEqual(['a ü.txt', 'b.txt']);
    expect(await store.names(folder)).toEqual((await store.list(folder)).map((f) => f.key.slice(folder.length)));
    await store.delete(`${folder}b.txt`);
    expect(await store.names(folder)).toEqual(['a ü.txt']);
    await store.deletePrefix(folder);
    expect(await store.names(folder)).toEqual([]);
  });

  // The local store keeps folder listings: what it writes itself shows at once, what another
  // server on the same folder (or a person) changes there within its quarter-second recheck, also
  // when the folder's time is long past (docs/performance.md#per-request).
  if (kind === 'local')
    it('a kept folder listing follows every change: its own at once, any other within a second', async () => {
      const other = makeStore('local', dataDir, s3, '');
      const folder = 'cruises/0123456789abcdef01234567/';
      const dir = path.join(dataDir, 'files', 'cruises', '0123456789abcdef01234567');
      const past = new Date(Date.now() - 3_600_000);
      /** The folder (or its parent) as if last changed an hour ago, so that a listing read now is kept. */
      const settle = (p: string) => utimesSync(p, past, past);
      const shows = (names: string[]) =>
        waitUntil(
          `the listing ${names.join(', ')}`,
          async () => JSON.stringify(await store.names(folder)) === JSON.stringify(names),
          1000,
        );
      mkdirSync(path.dirname(dir), { recursive: true });
      settle(path.dirname(dir));
      expect(await store.names(folder)).toEqual([]);
      await store.put(`${folder}own.txt`, Buffer.from('own'));
      expect(await store.names(folder)).toEqual(['own.txt']);
      settle(dir);
      expect(await store.names(folder)).toEqual(['own.txt']);
      expect(await store.delete(`${folder}own.txt`)).toBe(true);
      expect(await store.names(folder)).toEqual([]);
      settle(dir);
      expect(await store.names(folder)).toEqual([]);
      await other.put(`${folder}plan.txt`, Buffer.from('plan'));
      await shows(['plan.txt']);
      settle(dir);
      expect(await store.names(folder)).toEqual(['plan.txt']);
      await other.put(`${folder}report.txt`, Buffer.from('report'));
      await shows(['plan.txt', 'report.txt']);
      settle(dir);
      expect(await store.names(folder)).toEqual(['plan.txt', 'report.txt']);
      renameSync(path.join(dir, 'plan.txt'), path.join(dir, 'plan-v2.txt'));
      await shows(['plan-v2.txt', 'report.txt']);
      settle(dir);
      expect(await store.names(folder)).toEqual(['plan-v2.txt', 'report.txt']);
      rmSync(path.join(dir, 'report.txt'));
      await shows(['plan-v2.txt']);
      settle(dir);
      settle(path.dirname(dir));
      expect(await store.names(folder)).toEqual(['plan-v2.txt']);
      rmSync(dir, { recursive: true });
      await shows([]);
      settle(path.dirname(dir));
      expect(await store.names(folder)).toEqual([]);
      mkdirSync(dir);
      writeFileSync(path.join(dir, 'again.txt'), 'again');
      await shows(['again.txt']);
      other.close();
    });

  it('streams a large body in parts and reads it back byte for byte', async () => {
    const size = 11 * 1024 * 1024 + 17;
    const hash = createHash('sha256');
    let sent = 0;
    const body = new Readable({
      read() {
        if (sent >= size) return this.push(null);
        const chunk = randomBytes(Math.min(512 * 1024, size - sent));
        sent += chunk.length;
        hash.update(chunk);
        this.push(chunk);
      },
    });
    await store.put('images/big.bin', body);
    expect((await store.stat('images/big.bin'))?.size).toBe(size);
    const back = createHash('sha256');
    for await (const c of (await store.read('images/big.bin'))!) back.update(c as Buffer);
    expect(back.digest('hex')).toBe(hash.digest('hex'));
  });

  it('a body that fails midway leaves nothing under its name, nor beside it', async () => {
    await expect(store.put('images/cut.bin', failingBody(12 * 1024 * 1024, 7 * 1024 * 1024))).rejects.toThrow(
      'upload cut short',
    );
    expect(await store.stat('images/cut.bin')).toBeNull();
    expect(await store.list('images/', { recursive: true })).toEqual([]);
  });

  it('refuses keys that leave their folder', async () => {
    for (const key of ['images/../secret', '../secret', 'images//x', 'images/a\\b', 'images/\u0000x', '/images/x']) {
      await expect(store.put(key, Buffer.from('x'))).rejects.toMatchObject({ statusCode: 400 });
      await expect(store.stat(key)).rejects.toMatchObject({ statusCode: 400 });
    }
    await expect(store.list('images/../')).rejects.toMatchObject({ statusCode: 400 });
  });

  // A property of the folder store alone: a bucket has no symlinks, so the case is not defined for it.
  if (kind === 'local')
    it('never follows a symlink out of its folder', async () => {
      writeFileSync(path.join(dataDir, 'secret'), 'the secret');
      mkdirSync(path.join(dataDir, 'files', 'images'), { recursive: true });
      symlinkSync(path.join(dataDir, 'secret'), path.join(dataDir, 'files', 'images', 'link.jpg'));
      expect(await store.stat('images/link.jpg')).toBeNull();
      expect(await store.read('images/link.jpg')).toBeNull();
      expect(await store.delete('images/link.jpg')).toBe(false);
      // Nor writes through a symlinked folder (a thumbnail beside an image in it, say).
      mkdirSync(path.join(dataDir, 'outside'));
      symlinkSync(path.join(dataDir, 'outside'), path.join(dataDir, 'files', 'images', 'sub'));
      await expect(store.put('images/sub/.thumbnails/160/x.jpg.jpg', Buffer.from('x'))).rejects.toMatchObject({
        statusCode: 400,
      });
      expect(readdirSync(path.join(dataDir, 'outside'))).toEqual([]);
    });

  it('answers check() while it works', async () => {
    mkdirSync(path.join(dataDir, 'files'), { recursive: true });
    await expect(store.check()).resolves.toBeUndefined();
  });
});

describe('an unreachable bucket', () => {
  it('answers a 503 with a message for every operation, naming no address or key', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bathylog-store-'));
    const down = new TestS3Server();
    await down.start();
    const store = down.store(dataDir);
    await down.destroy();
    const failures: unknown[] = [];
    const operations: Array<() => Promise<unknown>> = [
      () => store.stat('images/a.jpg'),
      () => store.read('images/a.jpg'),
      () => store.put('images/a.jpg', Buffer.from('x')),
      () => store.put('images/a.jpg', Readable.from([Buffer.from('x')])),
      () => store.list('images/'),
      () => store.check(),
    ];
    for (const op of operations) {
      const err = await op().then(
        () => null,
        (e: unknown) => e,
      );
      failures.push(err);
      expect(err).toMatchObject({
        statusCode: 503,
        message: 'The file store is not reachable at the moment; try again later',
      });
    }
    store.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
});

describe('parseRange', () => {
  it('reads one bytes range, and knows one past the end', () => {
    expect(parseRange(undefined, 10)).toBeNull();
    expect(parseRange('bytes=0-3', 10)).toEqual({ start: 0, end: 3 });
    expect(parseRange('bytes=4-', 10)).toEqual({ start: 4, end: 9 });
    expect(parseRange('bytes=-3', 10)).toEqual({ start: 7, end: 9 });
    expect(parseRange('bytes=5-100', 10)).toEqual({ start: 5, end: 9 });
    expect(parseRange('bytes=10-', 10)).toBe('unsatisfiable');
    expect(parseRange('bytes=0-1,4-5', 10)).toBeNull();
    expect(parseRange('items=0-1', 10)).toBeNull();
  });
});
