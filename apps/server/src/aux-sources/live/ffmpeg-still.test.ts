import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import jpeg from 'jpeg-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  freePort,
  type Peer,
  recordingDeps,
  requestAt,
  tempImages,
  testPatternEncoder,
  waitUntil,
} from '../../../test/aux-live.js';
import { peer } from '../../../test/peers.js';
import type { AuxSource } from '../source.js';
import { ffmpegStillConfigSchema } from './ffmpeg-still.js';
import { liveSources } from './index.js';

const ffmpeg = peer('ffmpeg');

/** The grabs' ffmpeg processes (children of this test process but the encoder): none may be left behind. */
function ffmpegChildren(encoder: Peer): string[] {
  const out = execFileSync('ps', ['-o', 'pid=,stat=,args=', '--ppid', String(process.pid)], {
    encoding: 'utf8',
  }).trim();
  return out
    ? out
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l.includes('ffmpeg') && !l.startsWith(`${encoder.child.pid} `))
    : [];
}

describe.skipIf(!ffmpeg)('ffmpeg still from a live stream (ffmpeg testsrc as MPEG-TS over UDP)', () => {
  let port: number;
  let encoder: Peer;
  let source: AuxSource;
  const images = tempImages();
  const { deps, lines } = recordingDeps();
  const keys = ['Down Camera.camera_name', 'Down Camera.filename'];

  beforeAll(async () => {
    port = await freePort();
    encoder = testPatternEncoder(ffmpeg!, port);
    source = liveSources.ffmpeg_still!.create(
      { camera: 'Down Camera', url: `udp://127.0.0.1:${port}`, ffmpeg, timeout_seconds: 15 },
      deps,
    );
  });
  afterAll(async () => {
    await encoder.stop();
    images.remove();
  });

  it('writes one still of the stream for a current event, named as Sealog names frame grabs', async () => {
    const at = Date.now();
    const r = await source.readingAt(requestAt(at, keys, { imagesDir: images.dir }));
    expect(r.kind).toBe('reading');
    const values = (r as { reading: { values: Record<string, string> } }).reading.values;
    expect(values['Down Camera.camera_name']).toBe('Down Camera');
    const iso = new Date(at).toISOString();
    const name = `Down_Camera_${iso.slice(0, 10).replace(/-/g, '')}_${iso.slice(11, 19).replace(/:/g, '')}${iso.slice(20, 23)}.jpg`;
    expect(values['Down Camera.filename']).toBe(`/images/${name}`);
    const still = jpeg.decode(readFileSync(path.join(images.dir, name)));
    expect([still.width, still.height]).toEqual([320, 240]);
    expect(readdirSync(images.dir)).toEqual([name]);
    expect(source.health()).toMatchObject({ connected: true });
  });

  it('answers not_backfillable for a past event', async () => {
    expect(await source.readingAt(requestAt(Date.now() - 60_000, keys, { imagesDir: images.dir }))).toEqual({
      kind: 'not_backfillable',
    });
  });

  it('times out on a stream that sends nothing, kills ffmpeg, and keeps credentials out of health', async () => {
    const silent = await freePort();
    const dead = liveSources.ffmpeg_still!.create(
      {
        camera: 'Down Camera',
        url: `srt://127.0.0.1:${silent}?passphrase=hunter2-secret&mode=caller`,
        ffmpeg,
        timeout_seconds: 1,
      },
      deps,
    );
    const before = readdirSync(images.dir).length;
    await expect(dead.readingAt(requestAt(Date.now(), keys, { imagesDir: images.dir }))).rejects.toThrow(
      /camera Down Camera: (no image in time \(1 s\)|ffmpeg exited)/,
    );
    expect(dead.health().connected).toBe(false);
    expect(JSON.stringify(dead.health()) + lines.join('\n')).not.toContain('hunter2');
    expect(readdirSync(images.dir).length).toBe(before);
    await new Promise((r) => setTimeout(r, 200));
    expect(ffmpegChildren(encoder)).toEqual([]);
  });

  it('runs at most `concurrency` ffmpeg processes; a grab waiting beyond its time-out gives up', async () => {
    const silent = await freePort();
    const one = liveSources.ffmpeg_still!.create(
      { camera: 'Down Camera', url: `udp://127.0.0.1:${silent}`, ffmpeg, timeout_seconds: 1, concurrency: 1 },
      deps,
    );
    const grabs = [0, 1, 2].map(() => one.readingAt(requestAt(Date.now(), keys, { imagesDir: images.dir })));
    await new Promise((r) => setTimeout(r, 300));
    expect(ffmpegChildren(encoder)).toHaveLength(1);
    const results = await Promise.allSettled(grabs);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(ffmpegChildren(encoder)).toEqual([]);
  });

  it('runs nothing but ffmpeg', () => {
    for (const program of [
      '/bin/sh',
      'sh',
      '../ffmpeg',
      '/usr/bin/../../tmp/ffmpeg',
      '/tmp/ffmpeg-evil',
      'ffmpeg; rm -rf /',
    ])
      expect(
        ffmpegStillConfigSchema.safeParse({ camera: 'c', url: 'udp://127.0.0.1:5000', ffmpeg: program }).error
          ?.issues[0]?.message,
      ).toBe('ffmpeg must be ffmpeg or an absolute path ending in /ffmpeg');
    expect(
      ffmpegStillConfigSchema.safeParse({ camera: 'c', url: 'udp://127.0.0.1:5000', ffmpeg: '/usr/bin/ffmpeg' })
        .success,
    ).toBe(true);
  });

  it('kills a grab in flight when the source stops', async () => {
    const silent = await freePort();
    const source = liveSources.ffmpeg_still!.create(
      { camera: 'Down Camera', url: `udp://127.0.0.1:${silent}`, ffmpeg, timeout_seconds: 60 },
      deps,
    );
    const grab = source.readingAt(requestAt(Date.now(), keys, { imagesDir: images.dir }));
    await waitUntil('ffmpeg running', async () => ffmpegChildren(encoder).length === 1);
    await source.stop();
    await expect(grab).rejects.toThrow(/camera Down Camera/);
    expect(ffmpegChildren(encoder)).toEqual([]);
  });

  it('refuses a URL that is not a stream', () => {
    for (const url of ['file:///etc/passwd', 'concat:a.ts|b.ts', 'subfile,,start,0,end,0,,:/etc/passwd'])
      expect(ffmpegStillConfigSchema.safeParse({ camera: 'c', url }).error?.issues[0]?.message).toMatch(
        /^url must be a stream URL/,
      );
  });
});
