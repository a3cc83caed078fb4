import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readdirSync, rmSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@bathylog/shared';
import { RawClient, scriptHello } from '../../src/realtime/testing/ws-test-client.js';
import {
  ApiClient,
  createCruiseAndLowering,
  exportLowering,
  startServerProcess,
  type ServerProcess,
} from '../server-process.js';

/**
 * Disk full (docs/storage.md#durability-what-a-2xx-promises): the data folder on an 8 MB tmpfs that
 * the test mounts (root only; the suite says so and skips otherwise). Filled up, the server answers
 * writes it cannot store with 507 and a message (never 500, never a 201 for a record it did not
 * keep), refuses uploads leaving no partial file, keeps answering reads, pushes a free-space
 * reading the footer shows red, and works again once space is freed.
 */
function mount(dir: string): void {
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=8m', 'tmpfs', dir], { stdio: 'pipe' });
}

/** Null when this process may mount a tmpfs (tried on a scratch folder), else why not. */
function mountProblem(): string | null {
  if (process.getuid?.() !== 0) return 'not root: cannot mount a tmpfs';
  const probe = mkdtempSync(path.join(os.tmpdir(), 'bathylog-mount-probe-'));
  try {
    mount(probe);
    execFileSync('umount', [probe]);
    return null;
  } catch (err) {
    return `mount -t tmpfs failed: ${(err as Error).message}`;
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
}

/** Writes zeros until the file system refuses; returns the bytes written. */
function fill(file: string): number {
  const fd = openSync(file, 'w');
  const chunk = Buffer.alloc(64 * 1024);
  let written = 0;
  try {
    for (;;) written += writeSync(fd, chunk);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  } finally {
    closeSync(fd);
  }
  // The last bytes too, so not even a small page fits.
  const fd2 = openSync(`${file}.tail`, 'w');
  try {
    for (;;) writeSync(fd2, Buffer.alloc(512));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  } finally {
    closeSync(fd2);
  }
  return written;
}

function upload(api: ApiClient, token: string, cruiseId: string, bytes: number) {
  const form = new FormData();
  form.append('file', new Blob([Buffer.alloc(bytes, 7)]), 'bigfile.bin');
  return fetch(`${api.base}/sealog-server/files/cruises/${cruiseId}`, {
    method: 'POST',
    headers: { authorization: token },
    body: form,
  });
}

const skipReason = mountProblem();
if (skipReason) console.warn(`disk-full test skipped: ${skipReason}`);

describe.skipIf(skipReason !== null)('disk full (SQLite data folder on an 8 MB tmpfs)', () => {
  let server: ServerProcess | null = null;
  let ws: RawClient | null = null;
  const root = mkdtempSync(path.join(os.tmpdir(), 'bathylog-diskfull-'));
  const mountPoint = path.join(root, 'mnt');

  beforeAll(() => {
    mkdirSync(mountPoint);
    mount(mountPoint);
  });

  afterAll(async () => {
    ws?.close();
    await server?.stop();
    execFileSync('umount', [mountPoint]);
    if (process.env.BATHYLOG_KEEP_TEST_LOGS) console.log(`server log kept in ${root}/server.log`);
    else rmSync(root, { recursive: true, force: true });
  });

  it('answers 507 to what it cannot store, keeps reads working, and recovers when space is freed', async () => {
    const dataDir = path.join(mountPoint, 'data');
    server = await startServerProcess({
      dataDir,
      logFile: path.join(root, 'server.log'),
      env: { BATHYLOG_FREE_SPACE_INTERVAL: '1' },
    });
    const api = new ApiClient(server.url);
    await api.login();
    const token = (
      (await api.call('POST', '/auth/login', { username: 'admin', password: 'demo' })).body as {
        token: string;
      }
    ).token;
    const { cruiseId, loweringId } = await createCruiseAndLowering(api, 'full');
    ws = await RawClient.open(Number(new URL(server.url).port));
    const freeSpacePath = '/ws/status/updateCustomVars';
    expect((await ws.call(scriptHello(token, [freeSpacePath]))).type).toBe('hello');

    const acked: Array<{ id: string; marker: string }> = [];
    const refused: string[] = [];
    const post = async (marker: string) => {
      const res = await api.call('POST', '/events', { event_value: 'FULL', event_free_text: marker.padEnd(4000, '.') });
      if (res.status === 201) acked.push({ id: (res.body as { insertedId: string }).insertedId, marker });
      else {
        expect(res.status, `POST /events ${marker}: ${JSON.stringify(res.body)}`).toBe(507);
        expect(res.body).toEqual({ statusCode: 507, error: 'Insufficient Storage', message: messages.diskFull });
        refused.push(marker);
      }
      return res.status;
    };
    for (let i = 0; i < 5; i++) expect(await post(`before-${i}`)).toBe(201);

    const filler = path.join(mountPoint, 'video.bin');
    fill(filler);
    // Until the database's spare pages are used up, writes may still be stored; then 507.
    let status = 0;
    for (let i = 0; i < 2000 && status !== 507; i++) status = await post(`full-${i}`);
    expect(status).toBe(507);
    for (let i = 0; i < 5; i++) expect(await post(`still-full-${i}`)).toBe(507);

    // Aux data and other writes: 507 as well (or stored, never a 500).
    const aux = await api.call('POST', '/event_aux_data', {
      event_id: acked[0]!.id,
      data_source: 'fullDisk',
      data_array: [{ data_name: 'x', data_value: 'y'.repeat(20_000) }],
    });
    expect([201, 507]).toContain(aux.status);

    // An upload is refused and leaves nothing behind.
    const up = await upload(api, token, cruiseId, 1024 * 1024);
    expect(up.status).toBe(507);
    expect(((await up.json()) as { message: string }).message).toBe(messages.diskFull);
    const uploadDirs = ['upload-tmp', 'files/cruises'].map((d) => path.join(dataDir, d));
    const leftovers = uploadDirs.flatMap((d) => {
      try {
        return readdirSync(d, { recursive: true }).map(String);
      } catch {
        return [];
      }
    });
    expect(leftovers.filter((f) => f.includes('bigfile'))).toEqual([]);

    // Reads keep working, and hold every acknowledged record and none of the refused ones.
    expect((await api.call('GET', '/cruises')).status).toBe(200);
    const exported = await exportLowering(api, loweringId);
    const markers = exported.map((e) => e.event_free_text.replace(/\.+$/, ''));
    for (const a of acked) expect(markers.filter((m) => m === a.marker)).toHaveLength(1);
    for (const r of refused) expect(markers).not.toContain(r);
    expect(exported).toHaveLength(acked.length);

    // The footer's reading: freeSpacePercentage is pushed at 90 or more (red).
    await ws.next(
      (f) =>
        f.type === 'pub' &&
        f.path === freeSpacePath &&
        (f.message as { custom_var_name: string; custom_var_value: string }).custom_var_name ===
          'freeSpacePercentage' &&
        Number((f.message as { custom_var_value: string }).custom_var_value) >= 90,
      10_000,
    );

    // Space freed: writes, uploads and a green reading again.
    rmSync(filler);
    rmSync(`${filler}.tail`);
    expect(await post('after')).toBe(201);
    const again = await upload(api, token, cruiseId, 100 * 1024);
    expect(again.status).toBe(201);
    await ws.next(
      (f) =>
        f.type === 'pub' &&
        (f.message as { custom_var_name: string }).custom_var_name === 'freeSpacePercentage' &&
        Number((f.message as { custom_var_value: string }).custom_var_value) < 75,
      10_000,
      ws.frames.length,
    );
    const vars = await api.json<Array<{ custom_var_name: string; custom_var_value: string }>>(
      'GET',
      '/custom_vars?name=freeSpacePercentage',
    );
    expect(Number(vars[0]!.custom_var_value)).toBeLessThan(75);
    const final = await exportLowering(api, loweringId);
    expect(final).toHaveLength(acked.length);
  }, 180_000);
});
