import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app.js';

/** What a ship's thin link gets: pre-compressed client files, compressed JSON, long-cached assets. */
describe('compression on the wire', () => {
  let t: TestApp;
  const webDir = mkdtempSync(path.join(os.tmpdir(), 'bathylog-web-'));
  const script = `console.log(${JSON.stringify('x'.repeat(4000))});\n`;

  beforeAll(async () => {
    mkdirSync(path.join(webDir, 'assets'));
    writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>Bathylog</title>');
    const file = path.join(webDir, 'assets', 'index-abc123.js');
    writeFileSync(file, script);
    writeFileSync(`${file}.br`, brotliCompressSync(script));
    writeFileSync(`${file}.gz`, gzipSync(script));
    t = await createTestApp('sqlite', { webDir });
  });
  afterAll(async () => {
    await t.close();
    rmSync(webDir, { recursive: true, force: true });
  });

  it('sends the pre-compressed brotli file of a hashed asset, cached for a year', async () => {
    const res = await t.app.inject({
      url: '/assets/index-abc123.js',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['cache-control']).toContain('max-age=31536000');
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(script);
  });

  it('sends gzip to a client without brotli, and the plain file to one without either', async () => {
    const gz = await t.app.inject({ url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(script);
    const plain = await t.app.inject({ url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
  });

  it('compresses JSON answers above a small size when the caller accepts it', async () => {
    const big = await t.app.inject({ url: '/sealog-server/swagger.json', headers: { 'accept-encoding': 'gzip' } });
    expect(big.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(big.rawPayload).toString())).toHaveProperty('openapi');
    const none = await t.app.inject({ url: '/sealog-server/swagger.json' });
    expect(none.headers['content-encoding']).toBeUndefined();
    expect(none.json()).toHaveProperty('openapi');
  });

  it("compresses the API's list reads, and still reads a compressed request body on a write", async () => {
    const admin = await t.login('admin', 'demo');
    for (let i = 0; i < 30; i++) {
      const body = { event_value: `COMPRESSED_${i}`, event_free_text: 'a long enough free text '.repeat(4) };
      expect((await t.api('POST', '/events', { token: admin, body })).statusCode).toBe(201);
    }
    const list = await t.api('GET', '/events', { token: admin, headers: { 'accept-encoding': 'br, gzip' } });
    expect(list.statusCode).toBe(200);
    expect(list.headers['content-encoding']).toBe('br');
    const events = JSON.parse(brotliDecompressSync(list.rawPayload).toString()) as Array<{ event_value: string }>;
    expect(events.filter((e) => e.event_value.startsWith('COMPRESSED_'))).toHaveLength(30);
    // A write's answer is a few bytes: sent as is.
    const posted = await t.app.inject({
      method: 'POST',
      url: '/sealog-server/api/v1/events',
      headers: {
        authorization: `Bearer ${admin}`,
        'content-type': 'application/json',
        'content-encoding': 'gzip',
        'accept-encoding': 'gzip',
      },
      payload: gzipSync(JSON.stringify({ event_value: 'GZIPPED_BODY' })),
    });
    expect(posted.statusCode).toBe(201);
    expect(posted.headers['content-encoding']).toBeUndefined();
    const id = (posted.json() as { insertedId: string }).insertedId;
    const read = await t.api('GET', `/events/${id}`, { token: admin });
    expect(read.json()).toMatchObject({ event_value: 'GZIPPED_BODY' });
  });

  it('leaves small answers alone', async () => {
    const res = await t.api('GET', '/nonexistent-route', { headers: { 'accept-encoding': 'gzip' } });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.json()).toMatchObject({ statusCode: 404, error: 'Not Found' });
  });
});
