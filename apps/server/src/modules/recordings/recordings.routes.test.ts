import { copyFileSync, mkdirSync, mkdtempSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FramegrabJob, FramegrabResult, Recording, VideoLink } from '@bathylog/shared';
import { createLowering, createUser } from '../../../test/api-fixtures.js';
import { peer } from '../../../test/peers.js';
import { createTestApp, engines, type TestApp } from '../../../test/test-app.js';
import { makeVideoFixture, psnr, referenceFrame, type VideoFixture } from '../../../test/video-fixture.js';
import { RecordingsService } from './recordings.service.js';
import { RecordingsWatcher } from '../../jobs/recordings-watcher.js';

const ffmpeg = peer('ffmpeg');
const ffprobe = peer('ffprobe');
type Json = Record<string, unknown>;

/**
 * Recordings linked by time (docs/video.md): a real recording made by ffmpeg, registered, probed,
 * resolved; frames grabbed and compared with the reference frame by PSNR; served with ranges; and
 * the refusals (a path out of the data folder, a reader shut out of the lowering, a duration given).
 */
describe.skipIf(!ffmpeg || !ffprobe).each(engines)('recordings on %s', (engine) => {
  let t: TestApp;
  let admin: string;
  let lowering: string;
  let fx: VideoFixture;
  let seg0: Recording;
  let seg1: Recording;
  const at = (seconds: number) => new Date(fx.segments[0]!.start + seconds * 1000).toISOString();
  const logEvent = async (ts: string, value = 'FISH') => {
    const res = await t.api('POST', '/events', { token: admin, body: { event_value: value, ts } });
    expect(res.statusCode, res.body).toBe(201);
    return (res.json() as { insertedId: string }).insertedId;
  };
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'video-test-'));

  beforeAll(async () => {
    t = await createTestApp(engine, { useAccessControl: true, video: { ffmpeg: ffmpeg!, ffprobe: ffprobe! } });
    admin = await t.login('admin', 'demo');
    lowering = await createLowering(t, admin);
    fx = makeVideoFixture(ffmpeg!, t.dataDir);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('registers segments with what ffprobe reads, never what the caller says', async () => {
    const res = await t.api('POST', `/lowerings/${lowering}/recordings`, {
      token: admin,
      body: {
        camera: 'cam1',
        start_ts: new Date(fx.segments[0]!.start).toISOString(),
        copies: [
          { uri: fx.segments[0]!.uri, role: 'master' },
          { uri: fx.hls, role: 'hls' },
        ],
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    seg0 = res.json() as Recording;
    expect(seg0.duration_ms).toBe(40_000);
    expect(seg0.stop_ts).toBe(at(40));
    const master = seg0.copies.find((c) => c.role === 'master')!;
    expect(master).toMatchObject({ codec: 'h264', width: 320, height: 240, frame_rate: 25, interlaced: false });
    expect(master.size_bytes).toBeGreaterThan(1000);

    const second = await t.api('POST', `/lowerings/${lowering}/recordings`, {
      token: admin,
      body: {
        camera: 'cam1',
        start_ts: new Date(fx.segments[1]!.start).toISOString(),
        copies: [{ uri: fx.segments[1]!.uri, role: 'master' }],
      },
    });
    expect(second.statusCode, second.body).toBe(201);
    seg1 = second.json() as Recording;
    expect(seg1.duration_ms).toBe(24_000);

    const list = await t.api('GET', `/lowerings/${lowering}/recordings`, { token: admin });
    expect((list.json() as Recording[]).map((r) => r.id)).toEqual([seg0.id, seg1.id]);
  });

  it('refuses a duration, codec or size from the caller, naming the field', async () => {
    const res = await t.api('POST', `/lowerings/${lowering}/recordings`, {
      token: admin,
      body: {
        camera: 'cam2',
        start_ts: at(0),
        duration_ms: 99_000,
        copies: [{ uri: fx.segments[0]!.uri, role: 'master' }],
      },
    });
    expect(res.statusCode).toBe(400);
    expect((res.json() as Json).message).toMatch(/duration_ms/);
  });

  it('refuses a path out of the data folder, by .., by absolute path and by symlink, and URL credentials', async () => {
    writeFileSync(path.join(tmp, 'outside.mp4'), 'x');
    mkdirSync(path.join(t.dataDir, 'video', 'links'), { recursive: true });
    symlinkSync(path.join(tmp, 'outside.mp4'), path.join(t.dataDir, 'video', 'links', 'cam9_20230314T223000Z.mp4'));
    const refused = async (uri: string) => {
      const res = await t.api('POST', `/lowerings/${lowering}/recordings`, {
        token: admin,
        body: { camera: 'cam9', start_ts: at(0), copies: [{ uri, role: 'master' }] },
      });
      expect(res.statusCode, uri).toBe(400);
      return (res.json() as Json).message as string;
    };
    expect(await refused('../../../../etc/passwd')).toBe('copies.0.uri is outside the data folder');
    expect(await refused(path.join(tmp, 'outside.mp4'))).toBe('copies.0.uri is outside the data folder');
    expect(await refused('video/links/cam9_20230314T223000Z.mp4')).toBe('copies.0.uri is outside the data folder');
    expect(await refused('https://user:secret@video.example.org/cam9.m3u8')).toBe(
      'copies.0.uri may not carry credentials',
    );
    expect(await refused('file:///etc/passwd')).toMatch(/data folder or an http\(s\) URL/);
    // Nor may ffmpeg be sent to this machine's own services or to cloud metadata.
    expect(await refused('http://127.0.0.1:5432/cam9.m3u8')).toBe(
      'copies.0.uri may not name a loopback or link-local address',
    );
    expect(await refused('http://169.254.169.254/latest/meta-data')).toBe(
      'copies.0.uri may not name a loopback or link-local address',
    );
    expect(await refused('http://localhost/cam9.m3u8')).toBe(
      'copies.0.uri may not name a loopback or link-local address',
    );
    // Nothing was stored by the refusals.
    const list = await t.api('GET', `/lowerings/${lowering}/recordings`, { token: admin });
    expect((list.json() as Recording[]).every((r) => r.camera === 'cam1')).toBe(true);
  });

  it('resolves 37.2 s in to 37,200 ms; across the segment boundary to the next file; a gap to none', async () => {
    const resolve = async (ts: string) => {
      const res = await t.api('GET', `/lowerings/${lowering}/video?ts=${encodeURIComponent(ts)}`, { token: admin });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as VideoLink[];
    };
    expect(await resolve(at(37.2))).toEqual([
      {
        camera: 'cam1',
        recording_id: seg0.id,
        offset_ms: 37_200,
        url: `/sealog-server/api/v1/recordings/${seg0.id}/media#t=37.2`,
      },
    ]);
    expect(await resolve(at(0))).toMatchObject([{ recording_id: seg0.id, offset_ms: 0 }]);
    expect(await resolve(at(40))).toMatchObject([{ recording_id: seg1.id, offset_ms: 0 }]);
    expect(await resolve(at(40.04))).toMatchObject([{ recording_id: seg1.id, offset_ms: 40 }]);
    expect(await resolve(at(39.96))).toMatchObject([{ recording_id: seg0.id, offset_ms: 39_960 }]);
    expect(await resolve(at(64))).toMatchObject([{ recording_id: seg1.id, offset_ms: 24_000 }]);
    expect(await resolve(at(64.001))).toEqual([]);
    expect(await resolve(at(-0.001))).toEqual([]);

    const event = await logEvent(at(37.2));
    const ofEvent = await t.api('GET', `/events/${event}/video`, { token: admin });
    expect(ofEvent.json()).toMatchObject([{ recording_id: seg0.id, offset_ms: 37_200 }]);
  });

  it('applies a camera clock offset', async () => {
    // The recorder ran 2 s fast: its file names start 2 s late in true time... earlier.
    const set = await t.api('PUT', `/lowerings/${lowering}/camera_offsets/cam1`, {
      token: admin,
      body: { offset_ms: 2000 },
    });
    expect(set.statusCode, set.body).toBe(200);
    const res = await t.api('GET', `/lowerings/${lowering}/video?ts=${encodeURIComponent(at(10))}`, { token: admin });
    expect(res.json()).toMatchObject([{ recording_id: seg0.id, offset_ms: 12_000 }]);
    await t.api('PUT', `/lowerings/${lowering}/camera_offsets/cam1`, { token: admin, body: { offset_ms: 0 } });
  });

  it('grabs the exact frame from the master and from the HLS copy (PSNR against the reference)', async () => {
    const event = await logEvent(at(37.2), 'CORAL');
    const res = await t.api('POST', `/events/${event}/framegrab`, { token: admin });
    expect(res.statusCode, res.body).toBe(200);
    const result = res.json() as FramegrabResult;
    expect(result.state).toBe('grabbed');
    expect(result.frames).toEqual([{ camera: 'cam1', filename: 'S0492_cam1_20230314_223037200.jpg' }]);
    const grabbed = path.join(t.dataDir, 'files', 'images', result.frames[0]!.filename);
    const index = Math.round(37.2 * fx.fps);
    const want = referenceFrame(ffmpeg!, fx.reference, index, path.join(tmp, 'want.png'));
    const before = referenceFrame(ffmpeg!, fx.reference, index - 1, path.join(tmp, 'before.png'));
    const after = referenceFrame(ffmpeg!, fx.reference, index + 1, path.join(tmp, 'after.png'));
    const exact = psnr(ffmpeg!, grabbed, want);
    expect(exact).toBeGreaterThan(32);
    expect(exact).toBeGreaterThan(psnr(ffmpeg!, grabbed, before) + 5);
    expect(exact).toBeGreaterThan(psnr(ffmpeg!, grabbed, after) + 5);

    // Stored as a normal frame grab: Sealog's pairs under its own data source, the file served.
    const aux = await t.api('GET', `/event_aux_data?eventID=${event}`, { token: admin });
    expect(aux.json()).toMatchObject([
      {
        data_source: 'recordedFramegrabberData',
        data_array: [
          { data_name: 'camera_name', data_value: 'cam1' },
          { data_name: 'filename', data_value: 'S0492_cam1_20230314_223037200.jpg' },
        ],
      },
    ]);
    const image = await t.app.inject({
      method: 'GET',
      url: `/sealog-server/files/images/${result.frames[0]!.filename}`,
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(image.statusCode).toBe(200);

    // The same moment from the HLS copy alone.
    const { FrameGrabber } = await import('../../media/frame-grabber.js');
    const { mediaSource } = await import('../../media/media-uri.js');
    const grabber = new FrameGrabber({
      ffmpeg: ffmpeg!,
      cacheDir: path.join(tmp, 'cache'),
      cacheBytes: 1 << 20,
      concurrency: 1,
      timeoutMs: 20_000,
    });
    const source = await mediaSource(fx.hls, t.dataDir);
    const fromHls = await grabber.grab({ source, offset_ms: 37_200, deinterlace: false, lane: 'interactive' });
    expect(fromHls.cached).toBe(false);
    const hlsExact = psnr(ffmpeg!, fromHls.file, want);
    expect(hlsExact).toBeGreaterThan(32);
    expect(hlsExact).toBeGreaterThan(psnr(ffmpeg!, fromHls.file, before) + 5);
    expect((await grabber.grab({ source, offset_ms: 37_200, deinterlace: false, lane: 'interactive' })).cached).toBe(
      true,
    );
  }, 30_000);

  it('grabs frames for every event of the lowering without one, with a result per event', async () => {
    const inside = await logEvent(at(12.5));
    const gap = await logEvent(at(90));
    const res = await t.api('POST', `/lowerings/${lowering}/framegrabs`, { token: admin });
    expect(res.statusCode, res.body).toBe(202);
    expect((await t.api('POST', `/lowerings/${lowering}/framegrabs`, { token: admin })).statusCode).toBe(409);
    await RecordingsService.settled(lowering);
    const job = (
      await t.api('GET', `/lowerings/${lowering}/framegrabs?results=all`, { token: admin })
    ).json() as FramegrabJob;
    // The progress poll carries only the failures.
    const poll = (await t.api('GET', `/lowerings/${lowering}/framegrabs`, { token: admin })).json() as FramegrabJob;
    expect(poll).toMatchObject({ done: 3, grabbed: 2, results: [] });
    expect(job.state).toBe('done');
    // The earlier events at 37.2 s: the first got no frame yet, the second had one.
    expect(job.total).toBe(3);
    expect(job.done).toBe(3);
    const byEvent = new Map(job.results.map((r) => [r.event_id, r.state]));
    expect(byEvent.get(inside)).toBe('grabbed');
    expect(byEvent.get(gap)).toBe('no_recording');
    expect(job).toMatchObject({ grabbed: 2, no_recording: 1, failed: 0 });
  }, 30_000);

  it('serves the media with range requests, the HLS playlist and only its own segments', async () => {
    const media = await t.app.inject({
      method: 'GET',
      url: `/sealog-server/api/v1/recordings/${seg0.id}/media`,
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(media.statusCode).toBe(200);
    expect(media.headers['accept-ranges']).toBe('bytes');
    const part = await t.app.inject({
      method: 'GET',
      url: `/sealog-server/api/v1/recordings/${seg0.id}/media`,
      headers: { authorization: `Bearer ${admin}`, range: 'bytes=0-99' },
    });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toMatch(/^bytes 0-99\/\d+$/);
    expect(part.rawPayload.length).toBe(100);
    expect(part.headers['content-type']).toBe('video/mp4');

    const hls = await t.app.inject({
      method: 'GET',
      url: `/sealog-server/api/v1/recordings/${seg0.id}/media?role=hls`,
      headers: { authorization: `Bearer ${admin}` },
    });
    const playlistUrl = hls.headers.location as string;
    const playlist = await t.app.inject({
      method: 'GET',
      url: playlistUrl,
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(playlist.statusCode).toBe(200);
    const firstSegment = playlist.body.split('\n').find((l) => l.endsWith('.ts'))!;
    const segment = await t.app.inject({
      method: 'GET',
      url: playlistUrl.replace(/[^/]+$/, firstSegment),
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(segment.statusCode).toBe(200);
    // A neighbour the playlist does not list (another recording's file) is not served through it.
    writeFileSync(path.join(t.dataDir, 'video', 'cam1', 'hls', 'secret.txt'), 'no');
    const other = await t.app.inject({
      method: 'GET',
      url: playlistUrl.replace(/[^/]+$/, 'secret.txt'),
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(other.statusCode).toBe(404);
    const escape = await t.app.inject({
      method: 'GET',
      url: playlistUrl.replace(/[^/]+$/, '..%2F..%2Fcam1-reference.mp4'),
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(escape.statusCode).toBe(400);
  });

  it('shuts a reader out of a lowering they may not open: recordings, video links and media', async () => {
    const reader = await createUser(t, admin, `reader_${engine}`, ['event_watcher']);
    const member = await createUser(t, admin, `member_${engine}`, ['event_watcher']);
    const perm = await t.api('PATCH', `/lowerings/${lowering}/permissions`, {
      token: admin,
      body: { add: [member.id] },
    });
    expect(perm.statusCode, perm.body).toBe(204);
    const event = await logEvent(at(20));

    expect((await t.api('GET', `/lowerings/${lowering}/recordings`, { token: member.token })).statusCode).toBe(200);
    const list = await t.api('GET', `/lowerings/${lowering}/recordings`, { token: reader.token });
    expect(list.statusCode).toBe(401);
    expect((await t.api('GET', `/recordings/${seg0.id}`, { token: reader.token })).statusCode).toBe(401);
    expect((await t.api('GET', `/recordings/${seg0.id}/media`, { token: reader.token })).statusCode).toBe(401);
    expect((await t.api('GET', `/recordings/${seg0.id}/media?role=hls`, { token: reader.token })).statusCode).toBe(401);
    expect(
      (
        await t.api('GET', `/recordings/${seg0.id}/copies/${seg0.copies[0]!.id}/cam1_20230314T223000Z.mp4`, {
          token: reader.token,
        })
      ).statusCode,
    ).toBe(401);
    expect((await t.api('GET', `/events/${event}/video`, { token: reader.token })).statusCode).toBe(404);
    expect((await t.api('GET', `/events/${event}/video`, { token: member.token })).statusCode).toBe(200);
    // A watcher registers nothing, even on the list.
    const write = await t.api('POST', `/lowerings/${lowering}/recordings`, {
      token: member.token,
      body: { camera: 'cam3', start_ts: at(0), copies: [{ uri: fx.segments[0]!.uri, role: 'proxy' }] },
    });
    expect(write.statusCode).toBe(403);
    await t.api('PATCH', `/lowerings/${lowering}/permissions`, { token: admin, body: { remove: [member.id] } });
  });

  it('carries each event’s recording, offset and deep link in event exports (JSON, CSV) and GIS exports', async () => {
    const json = await t.api('GET', `/event_exports/bylowering/${lowering}`, { token: admin });
    expect(json.statusCode).toBe(200);
    const rows = json.json() as Array<{ id: string; ts: string; video: VideoLink[] }>;
    expect(rows.every((r) => Array.isArray(r.video))).toBe(true);
    const at372 = rows.find((r) => r.ts === at(37.2))!;
    expect(at372.video).toEqual([
      {
        camera: 'cam1',
        recording_id: seg0.id,
        offset_ms: 37_200,
        url: `/sealog-server/api/v1/recordings/${seg0.id}/media#t=37.2`,
      },
    ]);
    expect(rows.find((r) => r.ts === at(90))!.video).toEqual([]);

    const csv = await t.api('GET', `/event_exports/bylowering/${lowering}?format=csv`, { token: admin });
    const [header, ...lines] = csv.body.trim().split('\n');
    const cols = header!.split(',').map((c) => c.replace(/^"|"$/g, ''));
    const url = cols.indexOf('video.url_value');
    const offset = cols.indexOf('video.offset_ms_value');
    expect(url).toBeGreaterThan(-1);
    const line = lines.find((l) => l.includes(at(37.2)))!.split(',');
    expect(line[url]).toBe(`"/sealog-server/api/v1/recordings/${seg0.id}/media#t=37.2"`);
    expect(line[offset]).toBe('"37200"');

    const one = await t.api('GET', `/event_exports/${rows.find((r) => r.ts === at(37.2))!.id}`, { token: admin });
    expect((one.json() as { video: VideoLink[] }).video[0]!.offset_ms).toBe(37_200);

    const gis = await t.api('GET', `/gis_exports/bylowering/${lowering}`, { token: admin });
    expect(gis.statusCode).toBe(200);
    const features = (gis.json() as { features: Array<{ properties: Record<string, unknown> }> }).features;
    const feature = features.find((f) => f.properties.ts === at(37.2))!;
    expect(feature.properties['video.offset_ms_value']).toBe('37200');
    expect(feature.properties['video.url_value']).toBe(`/sealog-server/api/v1/recordings/${seg0.id}/media#t=37.2`);
  });

  it('registers a file the segment muxer wrote into the watched folder, by the start in its name', async () => {
    const ctx = { ...t.ctx, config: { ...t.ctx.config, video: { ...t.ctx.config.video, watchFolder: 'incoming' } } };
    const watcher = new RecordingsWatcher(ctx);
    await watcher.start();
    try {
      const name = 'cam7_20230314T230000Z.mp4';
      const file = path.join(t.dataDir, 'incoming', name);
      copyFileSync(path.join(t.dataDir, fx.segments[1]!.uri), file);
      // Still being written as far as the watcher knows: seen once, not registered.
      await watcher.runOnce();
      const past = new Date(Date.now() - 10_000);
      utimesSync(file, past, past);
      await watcher.runOnce();
      await watcher.runOnce();
      const list = (await t.api('GET', `/lowerings/${lowering}/recordings`, { token: admin })).json() as Recording[];
      expect(list.find((r) => r.camera === 'cam7')).toMatchObject({
        start_ts: '2023-03-14T23:00:00.000Z',
        duration_ms: 24_000,
        copies: [{ uri: `incoming/${name}`, role: 'master', codec: 'h264' }],
      });
      // A name without a start is left alone.
      writeFileSync(path.join(t.dataDir, 'incoming', 'notes.mp4'), 'x');
      await watcher.runOnce();
      expect(
        ((await t.api('GET', `/lowerings/${lowering}/recordings`, { token: admin })).json() as Recording[]).length,
      ).toBe(list.length);
    } finally {
      await watcher.stop();
    }
  });

  it('imports a CSV list in one piece, or nothing', async () => {
    const other = await createLowering(t, admin, { lowering_id: 'S0493' });
    const bad = await t.api('POST', `/lowerings/${other}/recordings/import`, {
      token: admin,
      body: { csv: `camera,start_ts,uri,role\ncam5,${at(0)},/etc/hosts,master\n` },
    });
    expect(bad.statusCode).toBe(400);
    const taken = await t.api('POST', `/lowerings/${other}/recordings/import`, {
      token: admin,
      body: { csv: `camera,start_ts,uri,role\ncam5,${at(0)},${fx.segments[0]!.uri},master\n` },
    });
    expect(taken.statusCode).toBe(409);
    expect((await t.api('GET', `/lowerings/${other}/recordings`, { token: admin })).json()).toEqual([]);
  });
});
