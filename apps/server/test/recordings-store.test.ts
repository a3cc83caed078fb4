import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordedFramegrabSource, type FramegrabResult, type Recording } from '@bathylog/shared';
import { RecordingsService } from '../src/modules/recordings/recordings.service.js';
import { createLowering, createUser } from './api-fixtures.js';
import { peer } from './peers.js';
import { TestS3Server } from './s3-server.js';
import { startShipAndShore, waitUntil, type ShipAndShore } from './ship-and-shore.js';
import { createTestApp, engines, type TestApp } from './test-app.js';
import { makeVideoFixture, type VideoFixture } from './video-fixture.js';

const ffmpeg = peer('ffmpeg');
const ffprobe = peer('ffprobe');
const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const s3 = new TestS3Server();
const video = () => ({ ffmpeg: ffmpeg!, ffprobe: ffprobe! });

beforeAll(() => s3.start());
afterAll(() => s3.destroy());

/** The store key a stored copy's URI names. */
const keyOf = (uri: string) => {
  expect(uri).toMatch(/^store:recordings\/[0-9a-f]{24}\/[0-9a-f]{24}\.mp4$/);
  return uri.slice('store:'.length);
};

/**
 * Recordings' proxies and frames in the file store (docs/video.md#proxies): a proxy made by
 * ffmpeg goes into the store (the folder, or a bucket on a real S3-protocol server), is played
 * through the access check with range requests, and goes with its recording or lowering, as do the
 * frames grabbed from it, except a frame another record still names.
 */
const cases = engines.flatMap((engine) => (['local', 's3'] as const).map((store) => [engine, store] as const));
describe.skipIf(!ffmpeg || !ffprobe).each(cases)('recordings in the file store, %s, %s store', (engine, store) => {
  let t: TestApp;
  let admin: string;
  let lowering: string;
  let fx: VideoFixture;
  let recording: Recording;
  let proxyUri: string;
  const at = (seconds: number) => new Date(fx.segments[0]!.start + seconds * 1000).toISOString();

  const register = async (loweringId: string): Promise<Recording> => {
    const res = await t.api('POST', `/lowerings/${loweringId}/recordings`, {
      token: admin,
      body: {
        camera: 'cam1',
        start_ts: new Date(fx.segments[0]!.start).toISOString(),
        copies: [{ uri: fx.segments[0]!.uri, role: 'master' }],
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as Recording;
  };
  const makeProxy = async (id: string): Promise<Recording> => {
    const res = await t.api('POST', `/recordings/${id}/proxy`, { token: admin });
    expect(res.statusCode, res.body).toBe(202);
    await RecordingsService.proxySettled(id);
    return (await t.api('GET', `/recordings/${id}`, { token: admin })).json() as Recording;
  };

  beforeAll(async () => {
    t = await createTestApp(engine, {
      useAccessControl: true,
      video: video(),
      ...(store === 's3' ? { storage: s3.settings({ prefix: `${engine}/` }) } : {}),
    });
    admin = await t.login('admin', 'demo');
    lowering = await createLowering(t, admin);
    fx = makeVideoFixture(ffmpeg!, t.dataDir, { seconds: 6, segmentSeconds: 6 });
  }, 60_000);
  afterAll(async () => t?.close());

  it('makes a proxy with ffmpeg into the store and plays it with range requests after the access check', async () => {
    recording = await register(lowering);
    const res = await t.api('POST', `/recordings/${recording.id}/proxy`, { token: admin });
    expect(res.statusCode, res.body).toBe(202);
    const again = await t.api('POST', `/recordings/${recording.id}/proxy`, { token: admin });
    expect(again.statusCode).toBe(409);
    await RecordingsService.proxySettled(recording.id);
    const made = (await t.api('GET', `/recordings/${recording.id}`, { token: admin })).json() as Recording;
    const proxy = made.copies.find((c) => c.role === 'proxy')!;
    expect(proxy).toMatchObject({ codec: 'h264', width: 320, height: 240 });
    proxyUri = proxy.uri;
    const key = keyOf(proxy.uri);
    const stored = (await t.ctx.store.readBuffer(key))!;
    expect(stored).not.toBeNull();
    expect(proxy.checksum).toBe(`sha256:${sha(stored)}`);
    expect(proxy.size_bytes).toBe(stored.length);
    expect(t.ctx.store.kind).toBe(store);
    // In a bucket, nothing of it stays in the data folder (the file ffmpeg wrote went to the bucket).
    if (store === 's3') expect(existsSync(path.join(t.dataDir, 'files', 'recordings'))).toBe(false);
    expect(existsSync(path.join(t.dataDir, 'cache', 'proxies', `${proxy.id}.mp4`))).toBe(false);

    // The media route plays the proxy: a range answers 206 with exactly those bytes.
    const part = await t.api('GET', `/recordings/${recording.id}/media`, {
      token: admin,
      headers: { range: 'bytes=100-1099' },
    });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 100-1099/${stored.length}`);
    expect(part.headers['content-type']).toBe('video/mp4');
    expect(sha(part.rawPayload)).toBe(sha(stored.subarray(100, 1100)));
    const tail = await t.api('GET', `/recordings/${recording.id}/media`, {
      token: admin,
      headers: { range: `bytes=${stored.length - 500}-` },
    });
    expect(tail.statusCode).toBe(206);
    expect(sha(tail.rawPayload)).toBe(sha(stored.subarray(stored.length - 500)));
    const past = await t.api('GET', `/recordings/${recording.id}/media`, {
      token: admin,
      headers: { range: `bytes=${stored.length}-` },
    });
    expect(past.statusCode).toBe(416);
    // The whole file is a playable video of the recording's length.
    const whole = await t.api('GET', `/recordings/${recording.id}/media`, { token: admin });
    expect(whole.statusCode).toBe(200);
    const file = path.join(t.dataDir, 'played.mp4');
    writeFileSync(file, whole.rawPayload);
    const seconds = Number(
      execFileSync(ffprobe!, ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file], {
        encoding: 'utf8',
      }),
    );
    expect(Math.abs(seconds - 6)).toBeLessThan(0.2);
    // By the copy's own file route too.
    const byName = await t.api('GET', `/recordings/${recording.id}/copies/${proxy.id}/${proxy.id}.mp4`, {
      token: admin,
      headers: { range: 'bytes=0-99' },
    });
    expect(byName.statusCode).toBe(206);
    expect(sha(byName.rawPayload)).toBe(sha(stored.subarray(0, 100)));

    // A reader the lowering's access list leaves out gets the lowering's 401, and no bytes.
    const member = await createUser(t, admin, `member-${store}`, ['event_watcher']);
    const outsider = await createUser(t, admin, `outsider-${store}`, ['event_watcher']);
    const perms = await t.api('PATCH', `/lowerings/${lowering}/permissions`, {
      token: admin,
      body: { add: [member.id] },
    });
    expect(perms.statusCode, perms.body).toBe(204);
    const shut = await t.api('GET', `/recordings/${recording.id}/media`, {
      token: outsider.token,
      headers: { range: 'bytes=0-99' },
    });
    expect(shut.statusCode).toBe(401);
    const open = await t.api('GET', `/recordings/${recording.id}/media`, {
      token: member.token,
      headers: { range: 'bytes=0-99' },
    });
    expect(open.statusCode).toBe(206);
    // A second proxy of a recording that has one is refused.
    const twice = await t.api('POST', `/recordings/${recording.id}/proxy`, { token: admin });
    expect(twice.statusCode).toBe(409);
  }, 60_000);

  it('grabs a frame from the stored proxy when the master is not on this host, and caches it', async () => {
    const master = path.join(t.dataDir, fx.segments[0]!.uri);
    const res = await t.api('POST', '/events', { token: admin, body: { event_value: 'CORAL', ts: at(3) } });
    expect(res.statusCode, res.body).toBe(201);
    const eventId = (res.json() as { insertedId: string }).insertedId;
    // Another host of the installation: the master is on a disk this host does not see.
    renameSync(master, `${master}.away`);
    try {
      const grabbed = await t.api('POST', `/events/${eventId}/framegrab`, { token: admin });
      expect(grabbed.statusCode, grabbed.body).toBe(200);
      const result = grabbed.json() as FramegrabResult;
      expect(result.state, grabbed.body).toBe('grabbed');
      const frame = (await t.ctx.store.readBuffer(`images/${result.frames[0]!.filename}`))!;
      expect(frame.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
      // Grabbed again, the frame comes from the cache: the bucket's URL is signed anew, the proxy the same.
      const frames = path.join(t.dataDir, 'cache', 'frames');
      const cached = readdirSync(frames).length;
      const again = await t.api('POST', `/events/${eventId}/framegrab`, { token: admin });
      expect((again.json() as FramegrabResult).state).toBe('grabbed');
      expect(readdirSync(frames)).toHaveLength(cached);
      // No copy readable here at all: the grab says so, and no signed address reaches the caller.
      const key = keyOf(proxyUri);
      const proxyBytes = (await t.ctx.store.readBuffer(key))!;
      await t.ctx.store.delete(key);
      try {
        const none = await t.api('POST', `/events/${eventId}/framegrab`, { token: admin });
        expect(none.statusCode, none.body).toBe(200);
        expect(none.json()).toMatchObject({
          state: 'failed',
          message: 'cam1: The recording file is not on this server',
        });
      } finally {
        await t.ctx.store.put(key, proxyBytes);
      }
    } finally {
      renameSync(`${master}.away`, master);
    }
  }, 60_000);

  it('deleting a recording removes its proxy and its frames from the store; a frame another record names stays', async () => {
    const logEvent = async (ts: string) => {
      const res = await t.api('POST', '/events', { token: admin, body: { event_value: 'FISH', ts } });
      expect(res.statusCode, res.body).toBe(201);
      return (res.json() as { insertedId: string }).insertedId;
    };
    const grab = async (eventId: string) => {
      const res = await t.api('POST', `/events/${eventId}/framegrab`, { token: admin });
      expect(res.statusCode, res.body).toBe(200);
      const result = res.json() as FramegrabResult;
      expect(result.state).toBe('grabbed');
      return result.frames[0]!.filename;
    };
    const alone = await logEvent(at(2));
    const shared = await logEvent(at(4));
    const aloneFrame = await grab(alone);
    const sharedFrame = await grab(shared);
    // An inserter's record names the second frame too.
    const other = await t.api('POST', '/event_aux_data', {
      token: admin,
      body: {
        event_id: shared,
        data_source: 'vehicleRealtimeFramegrabberData',
        data_array: [
          { data_name: 'camera_name', data_value: 'cam1' },
          { data_name: 'filename', data_value: sharedFrame },
        ],
      },
    });
    expect(other.statusCode, other.body).toBe(201);
    expect(await t.ctx.store.stat(`images/${aloneFrame}`)).not.toBeNull();
    expect(await t.ctx.store.stat(`images/${sharedFrame}`)).not.toBeNull();
    // A thumbnail cached beside the frame goes with it.
    const thumb = await t.app.inject({
      method: 'GET',
      url: `/sealog-server/files/images/${aloneFrame}?w=160`,
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(thumb.statusCode).toBe(200);
    const key = keyOf(proxyUri);

    const del = await t.api('DELETE', `/recordings/${recording.id}`, { token: admin });
    expect(del.statusCode, del.body).toBe(204);
    expect(await t.ctx.store.stat(key)).toBeNull();
    expect(await t.ctx.store.list(`recordings/${recording.id}/`, { recursive: true })).toEqual([]);
    expect(await t.ctx.store.stat(`images/${aloneFrame}`)).toBeNull();
    expect(await t.ctx.store.stat(`images/.thumbnails/160/${aloneFrame}.jpg`)).toBeNull();
    expect(await t.ctx.store.stat(`images/${sharedFrame}`)).not.toBeNull();
    if (store === 'local') expect(existsSync(path.join(t.dataDir, 'files', 'recordings', recording.id))).toBe(false);
    // The frame records of the deleted recording went; the inserter's record stays.
    const sources = await t.ctx.database.db
      .selectFrom('event_aux_data')
      .select(['event_id', 'data_source'])
      .where('event_id', 'in', [alone, shared])
      .execute();
    expect(sources).toEqual([{ event_id: shared, data_source: 'vehicleRealtimeFramegrabberData' }]);
    expect(sources.some((s) => s.data_source === recordedFramegrabSource)).toBe(false);
  }, 60_000);

  it('a PATCH keeps or drops a stored proxy; deleting a lowering removes its recordings and their proxies', async () => {
    const other = await createLowering(t, admin, { lowering_id: 'S0500' });
    const rec = await register(other);
    const first = await makeProxy(rec.id);
    const firstKey = keyOf(first.copies.find((c) => c.role === 'proxy')!.uri);
    // A PATCH naming the stored proxy again keeps it; one leaving it out removes its file.
    const master = { uri: fx.segments[0]!.uri, role: 'master' };
    const keep = await t.api('PATCH', `/recordings/${rec.id}`, {
      token: admin,
      body: { copies: [master, { uri: `store:${firstKey}`, role: 'proxy' }] },
    });
    expect(keep.statusCode, keep.body).toBe(200);
    expect(await t.ctx.store.stat(firstKey)).not.toBeNull();
    const drop = await t.api('PATCH', `/recordings/${rec.id}`, { token: admin, body: { copies: [master] } });
    expect(drop.statusCode, drop.body).toBe(200);
    expect(await t.ctx.store.stat(firstKey)).toBeNull();
    // A caller never names a store key for a copy of its own.
    const foreign = await t.api('PATCH', `/recordings/${rec.id}`, {
      token: admin,
      body: { copies: [master, { uri: `store:${firstKey}`, role: 'proxy' }] },
    });
    expect(foreign.statusCode).toBe(400);
    const made = await makeProxy(rec.id);
    const key = keyOf(made.copies.find((c) => c.role === 'proxy')!.uri);
    expect(key).not.toBe(firstKey);
    expect(await t.ctx.store.stat(key)).not.toBeNull();
    const del = await t.api('DELETE', `/lowerings/${other}`, { token: admin });
    expect(del.statusCode, del.body).toBe(204);
    expect((await t.api('GET', `/recordings/${rec.id}`, { token: admin })).statusCode).toBe(404);
    expect(await t.ctx.store.stat(key)).toBeNull();
    const rows = await t.ctx.database.db
      .selectFrom('recording_copies')
      .select('id')
      .where('recording_id', '=', rec.id)
      .execute();
    expect(rows).toEqual([]);
    // The deletion is in the audit trail, which a following shore reads.
    const audit = await t.ctx.database.db
      .selectFrom('audit_log')
      .select('action')
      .where('record_type', '=', 'recording')
      .where('record_id', '=', rec.id)
      .execute();
    expect(audit.map((a) => a.action)).toContain('delete');
  }, 60_000);

  it('one host makes a proxy: a claim another host renewed refuses it, a stale one is taken over', async () => {
    const rec = await register(lowering);
    const claimedAt = async () =>
      (
        await t.ctx.database.db
          .selectFrom('recordings')
          .select('proxy_claimed_at')
          .where('id', '=', rec.id)
          .executeTakeFirstOrThrow()
      ).proxy_claimed_at;
    const claim = (at: number) =>
      t.ctx.database.db.updateTable('recordings').set({ proxy_claimed_at: at }).where('id', '=', rec.id).execute();
    // Another host of the installation is making it (it said so just now).
    await claim(Date.now() - 5_000);
    const busy = await t.api('POST', `/recordings/${rec.id}/proxy`, { token: admin });
    expect(busy.statusCode).toBe(409);
    expect(busy.json()).toMatchObject({ message: `The proxy of recording ${rec.id} is being made` });
    // That host died: its claim, not renewed for over a minute, is taken over.
    await claim(Date.now() - 61_000);
    const made = await makeProxy(rec.id);
    expect(made.copies.filter((c) => c.role === 'proxy')).toHaveLength(1);
    expect(await claimedAt()).toBeNull();
  }, 60_000);
});

/**
 * A proxy made on a ship (in its folder) reaches a shore that keeps its files in a bucket, and the
 * shore plays it from there with range requests; when the ship deletes the recording, the
 * shore's copy of the proxy goes from the bucket.
 */
describe.skipIf(!ffmpeg || !ffprobe).each(engines)('a proxy from a ship to a shore on S3, shore on %s', (engine) => {
  let both: ShipAndShore;
  beforeAll(async () => {
    const sync = { pollIntervalMs: 100 };
    both = await startShipAndShore({
      ship: { sync, video: video() },
      shore: { engine, config: { sync, video: video(), storage: s3.settings({ prefix: `shore-${engine}/` }) } },
    });
  }, 60_000);
  afterAll(async () => both?.close());

  it('copies the proxy into the bucket and plays it there', async () => {
    const { ship, shore, shipAdmin, shoreAdmin } = both;
    const fx = makeVideoFixture(ffmpeg!, ship.dataDir, { seconds: 6, segmentSeconds: 6 });
    const lowering = await createLowering(ship, shipAdmin);
    const reg = await ship.api('POST', `/lowerings/${lowering}/recordings`, {
      token: shipAdmin,
      body: {
        camera: 'cam1',
        start_ts: new Date(fx.segments[0]!.start).toISOString(),
        copies: [{ uri: fx.segments[0]!.uri, role: 'master' }],
      },
    });
    expect(reg.statusCode, reg.body).toBe(201);
    const id = (reg.json() as Recording).id;
    expect((await ship.api('POST', `/recordings/${id}/proxy`, { token: shipAdmin })).statusCode).toBe(202);
    await RecordingsService.proxySettled(id);
    const made = (await ship.api('GET', `/recordings/${id}`, { token: shipAdmin })).json() as Recording;
    const key = keyOf(made.copies.find((c) => c.role === 'proxy')!.uri);
    const proxyBytes = (await ship.ctx.store.readBuffer(key))!;
    expect(ship.ctx.store.kind).toBe('local');

    const added = await shore.api('POST', '/ships', {
      token: shoreAdmin,
      body: { name: 'Falkor (too)', url: both.proxy.url, key: both.key },
    });
    expect(added.statusCode, added.body).toBe(201);
    const part = await waitUntil(
      'the proxy playable on the shore',
      async () => {
        const res = await shore.api('GET', `/recordings/${id}/media`, {
          token: shoreAdmin,
          headers: { range: 'bytes=1000-2999' },
        });
        return res.statusCode === 206 && res;
      },
      30_000,
    );
    expect(part.headers['content-range']).toBe(`bytes 1000-2999/${proxyBytes.length}`);
    expect(sha(part.rawPayload)).toBe(sha(proxyBytes.subarray(1000, 3000)));
    expect(shore.ctx.store.kind).toBe('s3');
    expect(sha((await shore.ctx.store.readBuffer(key))!)).toBe(sha(proxyBytes));
    expect(existsSync(path.join(shore.dataDir, 'files', 'recordings'))).toBe(false);

    const del = await ship.api('DELETE', `/recordings/${id}`, { token: shipAdmin });
    expect(del.statusCode).toBe(204);
    expect(await ship.ctx.store.stat(key)).toBeNull();
    await waitUntil('the proxy gone from the shore bucket', async () => (await shore.ctx.store.stat(key)) === null);
  }, 90_000);
});
