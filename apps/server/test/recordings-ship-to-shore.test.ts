import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Recording, SyncChangesPage } from '@bathylog/shared';
import { createLowering, createUser } from './api-fixtures.js';
import { peer } from './peers.js';
import { startShipAndShore, waitUntil, type ShipAndShore } from './ship-and-shore.js';
import { engines } from './test-app.js';
import { makeVideoFixture, type VideoFixture } from './video-fixture.js';

const ffmpeg = peer('ffmpeg');
const ffprobe = peer('ffprobe');

const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** Every file under a folder, as paths relative to it. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => statSync(path.join(dir, f)).isFile());
}

/**
 * Recordings follow a ship to its shore (docs/video.md#ship-to-shore): the record and its copies'
 * metadata, the proxy's file, never the master's; read-only on the shore, played there from the
 * proxy; a follower key that may not open the lowering gets nothing of it.
 */
describe.skipIf(!ffmpeg || !ffprobe).each(engines)('recordings ship to shore, shore on %s', (engine) => {
  let both: ShipAndShore;
  let fx: VideoFixture;
  let lowering: string;
  let secretLowering: string;
  let recording: Recording;
  let secretRecording: Recording;
  let proxyBytes: Buffer;
  let masterBytes: Buffer;
  const video = () => ({ ffmpeg: ffmpeg!, ffprobe: ffprobe! });

  /** A small proxy of a master, as a transcoder on the ship would make it. */
  const makeProxy = (master: string, name: string, size = '160:120') => {
    const rel = `video/proxy/${name}`;
    const out = path.join(both.ship.dataDir, rel);
    execFileSync('mkdir', ['-p', path.dirname(out)]);
    execFileSync(ffmpeg!, [
      ...['-hide_banner', '-loglevel', 'error', '-y', '-i', path.join(both.ship.dataDir, master)],
      ...['-vf', `scale=${size}`, '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', out],
    ]);
    return rel;
  };
  const register = async (loweringId: string, camera: string, master: string, proxy: string) => {
    const res = await both.ship.api('POST', `/lowerings/${loweringId}/recordings`, {
      token: both.shipAdmin,
      body: {
        camera,
        start_ts: new Date(fx.segments[0]!.start).toISOString(),
        copies: [
          { uri: master, role: 'master' },
          { uri: proxy, role: 'proxy' },
        ],
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as Recording;
  };

  beforeAll(async () => {
    const sync = { pollIntervalMs: 100 };
    both = await startShipAndShore({
      ship: { sync, useAccessControl: true, video: video() },
      shore: { engine, config: { sync, useAccessControl: true, video: video() } },
    });
    const { ship, shipAdmin } = both;
    fx = makeVideoFixture(ffmpeg!, ship.dataDir, { seconds: 6, segmentSeconds: 6 });
    lowering = await createLowering(ship, shipAdmin);
    // A second lowering open only to one user: a `follower` key may not open it.
    secretLowering = await createLowering(ship, shipAdmin, { lowering_id: 'S0493' });
    const member = await createUser(ship, shipAdmin, 'member', ['event_watcher']);
    const perms = await ship.api('PATCH', `/lowerings/${secretLowering}/permissions`, {
      token: shipAdmin,
      body: { add: [member.id] },
    });
    expect(perms.statusCode, perms.body).toBe(204);
    const master = fx.segments[0]!.uri;
    recording = await register(lowering, 'cam1', master, makeProxy(master, 'cam1_proxy.mp4'));
    // Its own bytes (testsrc2 makes the same picture twice): a checksum names one file only.
    const secretMaster = makeVideoFixture(ffmpeg!, ship.dataDir, { seconds: 6, segmentSeconds: 6, camera: 'cam2' })
      .segments[0]!.uri;
    secretRecording = await register(
      secretLowering,
      'cam2',
      secretMaster,
      makeProxy(secretMaster, 'cam2_proxy.mp4', '128:96'),
    );
    proxyBytes = readFileSync(path.join(ship.dataDir, 'video/proxy/cam1_proxy.mp4'));
    masterBytes = readFileSync(path.join(ship.dataDir, master));
  }, 120_000);

  afterAll(async () => both?.close());

  it('copies the record and the proxy file to the shore; the master stays on the ship', async () => {
    const { shore, shoreAdmin } = both;
    const added = await shore.api('POST', '/ships', {
      token: shoreAdmin,
      body: { name: 'Falkor (too)', url: both.proxy.url, key: both.key },
    });
    expect(added.statusCode, added.body).toBe(201);

    const onShore = await waitUntil('the recording on shore', async () => {
      const res = await shore.api('GET', `/lowerings/${lowering}/recordings`, { token: shoreAdmin });
      return res.statusCode === 200 && (res.json() as Recording[]).find((r) => r.id === recording.id);
    });
    expect(onShore).toMatchObject({
      camera: 'cam1',
      start_ts: recording.start_ts,
      duration_ms: recording.duration_ms,
    });
    const shipMaster = recording.copies.find((c) => c.role === 'master')!;
    const shipProxy = recording.copies.find((c) => c.role === 'proxy')!;
    const master = onShore.copies.find((c) => c.role === 'master')!;
    const proxy = onShore.copies.find((c) => c.role === 'proxy')!;
    // The master is listed (what it is, where it is) but not available here.
    expect(master).toMatchObject({ id: shipMaster.id, width: 320, height: 240, on_ship_only: true });
    expect(proxy).toMatchObject({ id: shipProxy.id, width: 160, height: 120 });
    expect(proxy.on_ship_only).toBeUndefined();

    // The proxy file arrives byte for byte; no file on the shore holds the master's bytes.
    const proxySha = sha(proxyBytes);
    const media = await waitUntil('the proxy playable on shore', async () => {
      const res = await shore.api('GET', `/recordings/${recording.id}/media`, { token: shoreAdmin });
      return res.statusCode === 200 && res;
    });
    expect(sha(media.rawPayload)).toBe(proxySha);
    const masterSha = sha(masterBytes);
    const shoreFiles = filesUnder(shore.dataDir).map((f) => sha(readFileSync(path.join(shore.dataDir, f))));
    expect(shoreFiles).toContain(proxySha);
    expect(shoreFiles).not.toContain(masterSha);
    // Asking for the master by name on the shore answers that it is not here.
    const masterMedia = await shore.api('GET', `/recordings/${recording.id}/media?role=master`, {
      token: shoreAdmin,
    });
    expect(masterMedia.statusCode).toBe(404);
  }, 60_000);

  it('is read-only on the shore, and its lowering decides who reads it there', async () => {
    const { shore, shoreAdmin } = both;
    const patch = await shore.api('PATCH', `/recordings/${recording.id}`, {
      token: shoreAdmin,
      body: { camera: 'cam9' },
    });
    expect(patch.statusCode).toBe(403);
    expect((patch.json() as { message: string }).message).toContain('Falkor (too)');
    const del = await shore.api('DELETE', `/recordings/${recording.id}`, { token: shoreAdmin });
    expect(del.statusCode).toBe(403);
    // The secret lowering came with its access list: a shore user not on it is shut out.
    await waitUntil('the secret recording on shore', async () =>
      shore.ctx.database.db
        .selectFrom('recordings')
        .select('id')
        .where('id', '=', secretRecording.id)
        .executeTakeFirst(),
    );
    const outsider = await createUser(shore, shoreAdmin, 'outsider', ['event_watcher']);
    const res = await shore.api('GET', `/recordings/${secretRecording.id}/media`, { token: outsider.token });
    expect(res.statusCode).toBe(401);
  }, 60_000);

  it('a change on the ship follows; a follower key without the lowering gets nothing of it', async () => {
    const { ship, shipAdmin, shore, shoreAdmin } = both;
    const moved = await ship.api('PATCH', `/recordings/${recording.id}`, {
      token: shipAdmin,
      body: { camera: 'cam7' },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    await waitUntil('the changed camera on shore', async () => {
      const res = await shore.api('GET', `/recordings/${recording.id}`, { token: shoreAdmin });
      return res.statusCode === 200 && (res.json() as Recording).camera === 'cam7';
    });

    const made = await ship.api('POST', '/device_keys', {
      token: shipAdmin,
      body: { name: 'reader shore', roles: ['follower'] },
    });
    expect(made.statusCode, made.body).toBe(201);
    const followerKey = (made.json() as { key: string }).key;
    const text: string[] = [];
    let cursor: string | undefined;
    for (;;) {
      const q = new URLSearchParams({ max_bytes: '65536', ...(cursor !== undefined ? { after: cursor } : {}) });
      const res = await ship.api('GET', `/sync/changes?${q}`, { token: followerKey });
      expect(res.statusCode, res.body).toBe(200);
      const page = res.json() as SyncChangesPage;
      text.push(JSON.stringify(page.changes));
      cursor = page.next;
      if (!page.more) break;
    }
    const all = text.join('');
    expect(all).toContain(recording.id);
    expect(all).not.toContain(secretRecording.id);
    // Nor its proxy's file, asked for by checksum.
    const secretProxy = sha(readFileSync(path.join(ship.dataDir, 'video/proxy/cam2_proxy.mp4')));
    const file = await ship.api('GET', `/sync/files/${secretProxy}`, { token: followerKey });
    expect(file.statusCode).toBe(404);
    // The full follower gets it, and never the master's bytes by the master's checksum.
    const full = await ship.api('GET', `/sync/files/${secretProxy}`, { token: both.key });
    expect(full.statusCode).toBe(200);
    const masterFile = await ship.api('GET', `/sync/files/${sha(masterBytes)}`, { token: both.key });
    expect(masterFile.statusCode).toBe(404);
  }, 60_000);
});
