import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import jpeg from 'jpeg-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordingDeps, requestAt, tempImages } from '../../../test/aux-live.js';
import { liveSources } from './index.js';
import { CameraError } from './frame-grab.js';
import { httpSnapshotConfigSchema } from './http-snapshot.js';

/** A 16×8 grey JPEG, as an encoder's snapshot URL answers. */
const frame = jpeg.encode({ width: 16, height: 8, data: Buffer.alloc(16 * 8 * 4, 128) }, 80).data;

describe('HTTP snapshot camera (a local HTTP camera)', () => {
  let server: Server;
  let base: string;
  const seen: IncomingMessage[] = [];
  const hanging: ServerResponse[] = [];
  const images = tempImages();
  const { deps, lines } = recordingDeps();

  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push(req);
      if (req.url === '/snapshot.jpg') {
        res.writeHead(200, { 'content-type': 'image/jpeg' });
        return res.end(frame);
      }
      if (req.url === '/error') {
        res.writeHead(500, { 'content-type': 'text/html' });
        return res.end('<h1>encoder busy</h1>');
      }
      if (req.url === '/html') {
        res.writeHead(200, { 'content-type': 'text/html' });
        return res.end('<h1>login</h1>');
      }
      hanging.push(res); // /never: accepts the connection, never answers
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const res of hanging) res.destroy();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    images.remove();
  });

  const camera = (url: string, more: object = {}) =>
    liveSources.http_snapshot!.create({ camera: 'Main Camera', url, timeout_seconds: 1, ...more }, deps);
  const keys = ['Main Camera.camera_name', 'Main Camera.filename'];

  it('writes one JPEG per current event with Sealog’s frame-grab name, and answers camera_name and filename', async () => {
    const source = camera(`${base}/snapshot.jpg`);
    const at = Date.now() - 300;
    const r = await source.readingAt(requestAt(at, keys, { imagesDir: images.dir }));
    const iso = new Date(at).toISOString();
    const name = `Main_Camera_${iso.slice(0, 10).replace(/-/g, '')}_${iso.slice(11, 19).replace(/:/g, '')}${iso.slice(20, 23)}.jpg`;
    expect(r).toEqual({
      kind: 'reading',
      reading: {
        ts: at,
        values: { 'Main Camera.camera_name': 'Main Camera', 'Main Camera.filename': `/images/${name}` },
      },
      provenance: 'realtime',
    });
    expect(readFileSync(path.join(images.dir, name))).toEqual(Buffer.from(frame));
    expect(readdirSync(images.dir)).toEqual([name]); // no temporary file left behind
    expect(source.health()).toMatchObject({ connected: true, lastReadingTs: at });
  });

  it('answers not_backfillable for a past event and fetches nothing', async () => {
    const source = camera(`${base}/snapshot.jpg`);
    const before = seen.length;
    expect(await source.readingAt(requestAt(Date.now() - 21_000, keys, { imagesDir: images.dir }))).toEqual({
      kind: 'not_backfillable',
    });
    expect(seen.length).toBe(before);
  });

  it('gives up on a camera that never answers within its time-out, and health says so', async () => {
    const source = camera(`${base}/never`);
    await expect(source.readingAt(requestAt(Date.now(), keys, { imagesDir: images.dir }))).rejects.toThrow(
      'camera Main Camera: no image in time (1 s)',
    );
    expect(source.health()).toMatchObject({
      connected: false,
      lastError: 'camera Main Camera: no image in time (1 s)',
    });
    // A CameraError: the manager shows its message (and counts it as a time-out).
    const error = await source.readingAt(requestAt(Date.now(), keys, { imagesDir: images.dir })).catch((e: Error) => e);
    expect(error).toBeInstanceOf(CameraError);
  });

  it('honours the manager’s AbortSignal', async () => {
    const source = camera(`${base}/never`, { timeout_seconds: 30 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    await expect(
      source.readingAt(requestAt(Date.now(), keys, { imagesDir: images.dir, signal: controller.signal })),
    ).rejects.toThrow('camera Main Camera: the request was cancelled');
  });

  it('reports an error answer or a page that is not a JPEG, and writes nothing', async () => {
    const files = readdirSync(images.dir).length;
    const failing = camera(`${base}/error`);
    await expect(failing.readingAt(requestAt(Date.now(), keys, { imagesDir: images.dir }))).rejects.toThrow(
      /HTTP 500 Internal Server Error/,
    );
    expect(failing.health().lastError).toMatch(/^camera Main Camera: HTTP 500 Internal Server Error from http:\/\/127/);
    const html = camera(`${base}/html`);
    await expect(html.readingAt(requestAt(Date.now(), keys, { imagesDir: images.dir }))).rejects.toThrow(
      'camera Main Camera: the answer is not a JPEG image',
    );
    expect(readdirSync(images.dir).length).toBe(files);
  });

  it('sends URL credentials as Basic auth and never shows them in errors, health or logs', async () => {
    const source = camera(`http://admin:p%40ss-W0rd@127.0.0.1:${new URL(base).port}/error`);
    const error = await source.readingAt(requestAt(Date.now(), keys, { imagesDir: images.dir })).catch((e: Error) => e);
    expect(seen.at(-1)!.headers.authorization).toBe(`Basic ${Buffer.from('admin:p@ss-W0rd').toString('base64')}`);
    const shown = `${String(error)} ${JSON.stringify(source.health())} ${lines.join('\n')}`;
    expect(shown).toContain('HTTP 500');
    expect(shown).not.toMatch(/p%40ss|p@ss|admin:/);
  });

  it('answers a health probe (no event) by grabbing without writing, then from its last grab for check_seconds', async () => {
    const source = camera(`${base}/snapshot.jpg`, { check_seconds: 60 });
    const files = readdirSync(images.dir).length;
    const before = seen.length;
    const probe = () => source.readingAt(requestAt(Date.now(), keys, { imagesDir: images.dir, eventId: '' }));
    expect(await probe()).toMatchObject({
      kind: 'reading',
      reading: { values: { 'Main Camera.camera_name': 'Main Camera' } },
    });
    expect(seen.length).toBe(before + 1);
    expect(await probe()).toMatchObject({ kind: 'reading' });
    expect(seen.length).toBe(before + 1); // answered from the recent grab
    expect(readdirSync(images.dir).length).toBe(files);
    const dead = camera(`${base}/error`, { check_seconds: 60 });
    await expect(dead.readingAt(requestAt(Date.now(), keys, { imagesDir: images.dir, eventId: '' }))).rejects.toThrow(
      /HTTP 500/,
    );
  });

  it('grabs several cameras into one answer; one that fails is left out and named in health', async () => {
    const source = liveSources.http_snapshot!.create(
      {
        cameras: [
          { camera: 'Main Camera', url: `${base}/snapshot.jpg` },
          { camera: 'Down Camera', url: `${base}/snapshot.jpg`, filename_prefix: 'DOWN_' },
          { camera: 'Aft Camera', url: `${base}/error` },
        ],
        timeout_seconds: 1,
      },
      deps,
    );
    const at = Date.now();
    const r = await source.readingAt(
      requestAt(at, ['Main Camera.filename', 'Down Camera.filename', 'Aft Camera.filename'], { imagesDir: images.dir }),
    );
    const values = (r as { reading: { values: Record<string, string> } }).reading.values;
    expect(Object.keys(values)).toEqual([
      'Main Camera.camera_name',
      'Main Camera.filename',
      'Down Camera.camera_name',
      'Down Camera.filename',
    ]);
    expect(values['Down Camera.filename']).toMatch(/^\/images\/DOWN_\d{8}_\d{9}\.jpg$/);
    expect(source.health()).toMatchObject({
      connected: true,
      lastError: expect.stringMatching(/^camera Aft Camera: HTTP 500/),
    });
    expect(
      httpSnapshotConfigSchema
        .safeParse({
          camera: 'Main',
          cameras: [
            { camera: 'A', url: base },
            { camera: 'A', url: base },
          ],
        })
        .error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`),
    ).toEqual([
      'cameras: cameras replaces camera and url: give one or the other',
      'cameras: cameras must have different names',
    ]);
  });

  it('keeps every file inside the images folder whatever the camera is called', async () => {
    const source = liveSources.http_snapshot!.create(
      { camera: '../../etc/Down Cam', url: `${base}/snapshot.jpg`, timeout_seconds: 1 },
      deps,
    );
    const r = await source.readingAt(requestAt(Date.now(), ['../../etc/Down Cam.filename'], { imagesDir: images.dir }));
    const file = (r as { reading: { values: Record<string, string> } }).reading.values['../../etc/Down Cam.filename']!;
    expect(file).toMatch(/^\/images\/_etc_Down_Cam_\d{8}_\d{9}\.jpg$/);
    expect(existsSync(path.join(images.dir, path.basename(file)))).toBe(true);
    expect(
      httpSnapshotConfigSchema
        .safeParse({ camera: 'x', url: 'file:///etc/passwd', filename_prefix: '../x' })
        .error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`),
    ).toEqual([
      'url: url must be an http:// or https:// URL',
      'filename_prefix: filename_prefix may hold only letters, digits, - and _',
    ]);
  });
});
