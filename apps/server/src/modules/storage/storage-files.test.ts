import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { createTestApp, engines, type TestApp } from '../../../test/test-app.js';
import { createCruise, filepondBody, multipart } from '../../../test/api-fixtures.js';
import { fileStores, TcpProxy, TestS3Server } from '../../../test/s3-server.js';

type Json = Record<string, unknown>;
const files = '/sealog-server/files';

const s3 = new TestS3Server();
beforeAll(() => s3.start());
afterAll(() => s3.destroy());
let prefixes = 0;

function sha(data: Buffer | string): string {
  return createHash('sha256').update(data).digest('hex');
}

const png = () =>
  sharp({ create: { width: 400, height: 300, channels: 3, background: { r: 10, g: 80, b: 160 } } })
    .png()
    .toBuffer();

const cases = engines.flatMap((engine) => fileStores.map((store) => [engine, store] as const));

describe.each(cases)('files on %s with the %s store', (engine, kind) => {
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    t = await createTestApp(engine, {
      uploadLimitMb: 20,
      ...(kind === 's3' ? { storage: s3.settings({ prefix: `app${prefixes++}/` }) } : {}),
    });
    admin = await t.login('admin', 'demo');
  });
  afterAll(() => t?.close());

  const request = (
    method: 'GET' | 'POST' | 'DELETE',
    url: string,
    opts: { payload?: Buffer | string; headers?: Record<string, string>; token?: string | null } = {},
  ) =>
    t.app.inject({
      method,
      url,
      headers: { ...(opts.token !== null ? { authorization: `Bearer ${opts.token ?? admin}` } : {}), ...opts.headers },
      ...(opts.payload !== undefined ? { payload: opts.payload } : {}),
    });

  it('uploads a cruise file (FilePond), serves it whole and by range, and deletes it', async () => {
    const cruise = await createCruise(t, admin);
    const content = 'Dive plan: 0123456789\n';
    const body = filepondBody('dive plan.txt', content);
    const processed = await request('POST', `${files}/cruises/filepond/process/${cruise}`, body);
    expect(processed.statusCode).toBe(201);
    const patched = await t.api('PATCH', `/cruises/${cruise}`, {
      token: admin,
      body: { cruise_additional_meta: { cruise_files: [processed.body] } },
    });
    expect(patched.statusCode).toBe(204);
    const read = (await t.api('GET', `/cruises/${cruise}`, { token: admin })).json() as Json;
    expect((read.cruise_additional_meta as Json).cruise_files).toEqual(['dive plan.txt']);

    const url = `${files}/cruises/${cruise}/dive%20plan.txt`;
    const whole = await request('GET', url);
    expect(whole.statusCode).toBe(200);
    expect(whole.body).toBe(content);
    expect(whole.headers['accept-ranges']).toBe('bytes');
    const part = await request('GET', url, { headers: { range: 'bytes=11-20' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 11-20/${content.length}`);
    expect(part.body).toBe('0123456789');
    const past = await request('GET', url, { headers: { range: `bytes=${content.length}-` } });
    expect(past.statusCode).toBe(416);
    expect(past.headers['content-range']).toBe(`bytes */${content.length}`);
    expect((past.json() as Json).message).toBe(
      `The file has ${content.length} bytes: the range asked for is past its end`,
    );
    // Without a token: refused, as before.
    expect((await request('GET', url, { token: null })).statusCode).toBe(401);

    // Where it lives: the folder's layout as always, or the bucket (the pending upload is gone).
    expect(await t.ctx.store.stat(`cruises/${cruise}/dive plan.txt`)).toMatchObject({ size: content.length });
    expect(await t.ctx.store.list('upload-tmp/cruises/', { recursive: true })).toEqual([]);
    const onDisk = path.join(t.dataDir, 'files', 'cruises', cruise, 'dive plan.txt');
    if (kind === 'local') expect(readFileSync(onDisk, 'utf8')).toBe(content);
    else expect(existsSync(onDisk)).toBe(false);

    expect((await request('DELETE', url)).statusCode).toBe(204);
    expect((await request('GET', url)).statusCode).toBe(404);
    expect(await t.ctx.store.stat(`cruises/${cruise}/dive plan.txt`)).toBeNull();
  });

  it('serves a frame grab and makes its thumbnail once, cached in the store beside it', async () => {
    const image = await png();
    await t.ctx.store.put('images/grab-0001.png', image);
    const whole = await request('GET', `${files}/images/grab-0001.png`, { token: null });
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['content-type']).toBe('image/png');
    expect(sha(whole.rawPayload)).toBe(sha(image));
    const ranged = await request('GET', `${files}/images/grab-0001.png`, {
      token: null,
      headers: { range: 'bytes=0-7' },
    });
    expect(ranged.statusCode).toBe(206);
    expect(ranged.rawPayload).toEqual(image.subarray(0, 8));

    const thumb = await request('GET', `${files}/images/grab-0001.png?w=160`, { token: null });
    expect(thumb.statusCode).toBe(200);
    expect(thumb.headers['content-type']).toBe('image/jpeg');
    expect((await sharp(thumb.rawPayload).metadata()).width).toBe(160);
    const cached = await t.ctx.store.stat('images/.thumbnails/160/grab-0001.png.jpg');
    expect(cached?.size).toBe(thumb.rawPayload.length);
    const again = await request('GET', `${files}/images/grab-0001.png?w=160`, { token: null });
    expect(sha(again.rawPayload)).toBe(sha(thumb.rawPayload));
  });

  it('attaches a picture to an event, serves it, and a refused one leaves nothing', async () => {
    const event = ((await t.api('POST', '/events', { token: admin, body: { event_value: 'PHOTO' } })).json() as Json)
      .insertedId as string;
    const picture = await png();
    const upload = multipart([{ name: 'filepond', filename: 'seafloor.png', contentType: 'image/png', data: picture }]);
    const res = await request('POST', `${files}/images/filepond/process/${event}`, upload);
    expect(res.statusCode).toBe(201);
    expect(res.body).toMatch(new RegExp(`^${event}_[0-9a-f]{16}\\.png$`));
    expect(await t.ctx.store.stat(`images/${res.body}`)).toMatchObject({ size: picture.length });
    const served = await request('GET', `${files}/images/${res.body}`);
    expect(sha(served.rawPayload)).toBe(sha(picture));

    const before = (await t.ctx.store.list('images/', { startsWith: `${event}_` })).length;
    const text = multipart([
      { name: 'filepond', filename: 'notes.png', contentType: 'image/png', data: 'not a picture' },
    ]);
    const refused = await request('POST', `${files}/images/filepond/process/${event}`, text);
    expect(refused.statusCode).toBe(415);
    expect((await t.ctx.store.list('images/', { startsWith: `${event}_` })).length).toBe(before);

    // Deleting the event takes its pictures along.
    expect((await t.api('DELETE', `/events/${event}`, { token: admin })).statusCode).toBe(204);
    expect(await t.ctx.store.list('images/', { startsWith: `${event}_` })).toEqual([]);
  });
});

describe('a bucket that fails', () => {
  let t: TestApp;
  let admin: string;
  let proxy: TcpProxy;

  beforeAll(async () => {
    proxy = new TcpProxy(s3.port);
    await proxy.listen();
    t = await createTestApp('sqlite', {
      uploadLimitMb: 20,
      storage: s3.settings({ endpoint: proxy.url, prefix: `fail${prefixes++}/` }),
    });
    admin = await t.login('admin', 'demo');
  });
  afterAll(async () => {
    await t?.close();
    await proxy?.close();
  });

  it('mid-upload: a clear 503, nothing half-written visible, and the same upload works once it is back', async () => {
    const cruise = await createCruise(t, admin);
    const data = randomBytes(12 * 1024 * 1024);
    const body = multipart([{ name: 'file', filename: 'sidescan.xtf', data }]);
    const sentBefore = proxy.totalBytes;
    // Cut the link once some 6 MB of the upload went through (a part is 5 MB: one may be stored).
    const watcher = setInterval(() => {
      if (proxy.totalBytes - sentBefore > 6 * 1024 * 1024) {
        proxy.cut();
        clearInterval(watcher);
      }
    }, 5);
    const res = await t.app.inject({
      method: 'POST',
      url: `${files}/cruises/${cruise}`,
      headers: { authorization: `Bearer ${admin}`, ...body.headers },
      payload: body.payload,
    });
    clearInterval(watcher);
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({
      statusCode: 503,
      error: 'Service Unavailable',
      message: 'The file store is not reachable at the moment; try again later',
    });
    // Read straight from the bucket, past the cut link: no object, under any name.
    const direct = s3.store(t.dataDir, { prefix: (t.ctx.config.storage.s3.prefix as string) ?? '' });
    expect(await direct.list('cruises/', { recursive: true })).toEqual([]);
    expect(await direct.list('upload-tmp/', { recursive: true })).toEqual([]);
    direct.close();

    proxy.restore();
    const again = await t.app.inject({
      method: 'POST',
      url: `${files}/cruises/${cruise}`,
      headers: { authorization: `Bearer ${admin}`, ...body.headers },
      payload: body.payload,
    });
    expect(again.statusCode).toBe(201);
    const served = await t.app.inject({
      method: 'GET',
      url: `${files}/cruises/${cruise}/sidescan.xtf`,
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(sha(served.rawPayload)).toBe(sha(data));
  });

  it('unreachable: files answer 503, events are still taken, health says so, and all recovers', async () => {
    const cruise = await createCruise(t, admin);
    await t.ctx.store.put('images/before.png', await png());
    proxy.cut();
    try {
      const image = await t.app.inject({ method: 'GET', url: `${files}/images/before.png` });
      expect(image.statusCode).toBe(503);
      expect((image.json() as Json).message).toBe('The file store is not reachable at the moment; try again later');
      const upload = filepondBody('log.txt', 'x');
      const refused = await t.app.inject({
        method: 'POST',
        url: `${files}/cruises/filepond/process/${cruise}`,
        headers: { authorization: `Bearer ${admin}`, ...upload.headers },
        payload: upload.payload,
      });
      expect(refused.statusCode).toBe(503);

      // Events are never lost because the file store is down.
      const event = await t.api('POST', '/events', { token: admin, body: { event_value: 'WHILE_DOWN' } });
      expect(event.statusCode).toBe(201);
      expect((await t.api('GET', `/cruises/${cruise}`, { token: admin })).statusCode).toBe(200);

      const health = await t.app.inject({ method: 'GET', url: '/sealog-server/api/v1/health' });
      expect(health.statusCode).toBe(200);
      expect(health.json()).toEqual({ status: 'degraded', database: 'ok', files: 'unavailable' });
      const status = (await t.api('GET', '/storage/status', { token: admin })).json() as Json;
      expect(status).toMatchObject({ backend: 's3', reachable: false });
      expect(JSON.stringify(status)).not.toContain(s3.secretAccessKey);
    } finally {
      proxy.restore();
    }
    const health = await t.app.inject({ method: 'GET', url: '/sealog-server/api/v1/health' });
    expect(health.json()).toEqual({ status: 'ok', database: 'ok', files: 'ok' });
    expect((await t.app.inject({ method: 'GET', url: `${files}/images/before.png` })).statusCode).toBe(200);
  });

  it('the status route is for admins only', async () => {
    expect((await t.api('GET', '/storage/status')).statusCode).toBe(401);
  });
});
