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

  it('leaves small answers alone', async () => {
    const res = await t.api('GET', '/nonexistent-route', { headers: { 'accept-encoding': 'gzip' } });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.json()).toMatchObject({ statusCode: 404, error: 'Not Found' });
  });
});
