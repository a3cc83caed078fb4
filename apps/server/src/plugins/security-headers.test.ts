import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { createCruise } from '../../test/api-fixtures.js';
import { clientPolicy, inlineScriptHashes, sourceOfUrl } from './security-headers.js';

const inlineScript = 'window.__early = document.cookie.length;';
const shell =
  '<!doctype html><html><head><title>Bathylog</title>' +
  '<script type="module" crossorigin src="/assets/index-abc.js"></script>' +
  `<script>${inlineScript}</script></head><body><div id="root"></div></body></html>`;
const sha = `'sha256-${createHash('sha256').update(inlineScript).digest('base64')}'`;

/** The directives of a Content-Security-Policy header: name → sources. */
function directives(res: LightMyRequestResponse): Record<string, string[]> {
  const header = res.headers['content-security-policy'];
  expect(typeof header, `a Content-Security-Policy on ${res.statusCode} ${String(res.headers['content-type'])}`).toBe(
    'string',
  );
  return Object.fromEntries(
    String(header)
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...sources]) => [name!, sources]),
  );
}

function expectBaseHeaders(res: LightMyRequestResponse) {
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
}

describe('security headers on every answer', () => {
  let t: TestApp;
  let token: string;
  const webDir = mkdtempSync(path.join(os.tmpdir(), 'bathylog-web-'));
  const embedder = 'https://portal.example.org:8443';

  beforeAll(async () => {
    mkdirSync(path.join(webDir, 'assets'));
    writeFileSync(path.join(webDir, 'index.html'), shell);
    writeFileSync(path.join(webDir, 'assets', 'index-abc.js'), 'console.log(1);\n');
    writeFileSync(path.join(webDir, 'assets', 'index-abc.css'), 'body{color:red}\n');
    t = await createTestApp('sqlite', {
      webDir,
      contentSecurityPolicy: { frameAncestors: ['https://wiki.example.org'] },
      client: {
        loginWithTokenOrigins: [embedder],
        tileLayers: [
          { name: 'OSM', url: 'https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png', attribution: '' },
          { name: 'Local', url: '/tiles/{z}/{x}/{y}.png', attribution: '' },
        ],
        overlayLayers: [{ name: 'WMS', url: 'http://wms.ship.local:8080/wms?', attribution: '', wms: true }],
      },
    });
    token = await t.login('admin', 'demo');
    writeFileSync(path.join(t.ctx.paths.images, 'grab.png'), Buffer.from('89504e470d0a1a0a', 'hex'));
    writeFileSync(path.join(t.ctx.paths.images, 'drawing.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    const cruiseId = await createCruise(t, token);
    mkdirSync(path.join(t.ctx.paths.cruises, cruiseId), { recursive: true });
    writeFileSync(path.join(t.ctx.paths.cruises, cruiseId, 'notes.txt'), 'notes');
    cruiseFile = `/sealog-server/files/cruises/${cruiseId}/notes.txt`;
  });
  let cruiseFile = '';
  afterAll(async () => {
    await t.close();
    rmSync(webDir, { recursive: true, force: true });
  });

  it('the app shell, at / and at a client route, allows only its own scripts and the inline one', async () => {
    for (const url of ['/', '/index.html', '/review_map/5f0000000000000000000001', '/login']) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expectBaseHeaders(res);
      const csp = directives(res);
      expect(csp['script-src']).toEqual(["'self'", sha]);
      expect(csp['script-src-attr']).toEqual(["'none'"]);
      expect(csp['object-src']).toEqual(["'none'"]);
      expect(csp['base-uri']).toEqual(["'self'"]);
      expect(csp['default-src']).toEqual(["'self'"]);
      expect(csp['frame-ancestors']).toEqual(["'self'", 'https://wiki.example.org', embedder]);
      // Configured map tiles load (fetched by the map worker, or shown as images).
      for (const source of ['https://*.tile.openstreetmap.org', 'http://wms.ship.local:8080']) {
        expect(csp['connect-src']).toContain(source);
        expect(csp['img-src']).toContain(source);
      }
      expect(csp['img-src']).toEqual(expect.arrayContaining(["'self'", 'data:', 'blob:']));
      expect(csp['connect-src']![0]).toBe("'self'");
    }
  });

  it('scripts carry the policy too (a worker takes its own script’s)', async () => {
    const res = await t.app.inject({ url: '/assets/index-abc.js' });
    expect(res.statusCode).toBe(200);
    expectBaseHeaders(res);
    expect(directives(res)['script-src']).toEqual(["'self'", sha]);
  });

  it('static files, JSON, errors and 404s say nosniff and a referrer policy', async () => {
    const answers = await Promise.all([
      t.app.inject({ url: '/assets/index-abc.css' }),
      t.api('GET', '/cruises', { token }),
      t.api('GET', '/cruises'), // 401
      t.api('POST', '/cruises', { token, body: '{bad json', headers: { 'content-type': 'application/json' } }),
      t.api('GET', '/no-such-route', { token }),
      t.app.inject({ url: '/sealog-server/no-such-page' }),
      t.app.inject({ method: 'POST', url: '/no-such-page' }),
      t.app.inject({ url: '/sealog-server/client_settings' }),
      t.app.inject({ method: 'OPTIONS', url: '/sealog-server/api/v1/cruises', headers: { origin: 'http://x.test' } }),
    ]);
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 401, 400, 404, 404, 404, 200, 204]);
    for (const res of answers) expectBaseHeaders(res);
  });

  it('images and file downloads say nosniff; active content (SVG) also gets the policy', async () => {
    const image = await t.app.inject({ url: '/sealog-server/files/images/grab.png' });
    expect(image.statusCode).toBe(200);
    expectBaseHeaders(image);
    const svg = await t.app.inject({ url: '/sealog-server/files/images/drawing.svg' });
    expect(svg.statusCode).toBe(200);
    expectBaseHeaders(svg);
    expect(directives(svg)['script-src']).toEqual(["'self'", sha]);
    const download = await t.app.inject({ url: cruiseFile, headers: { authorization: `Bearer ${token}` } });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-disposition']).toMatch(/^attachment/);
    expectBaseHeaders(download);
  });

  it('the API documentation keeps working under a policy of its own', async () => {
    const page = await t.app.inject({ url: '/sealog-server/documentation/' });
    expect(page.statusCode).toBe(200);
    expectBaseHeaders(page);
    const csp = directives(page);
    expect(csp['script-src']).toEqual(["'self'"]);
    expect(csp['object-src']).toEqual(["'none'"]);
    const script = await t.app.inject({ url: '/sealog-server/documentation/static/swagger-initializer.js' });
    expect(script.statusCode).toBe(200);
    expectBaseHeaders(script);
  });
});

describe('policy parts', () => {
  it('hashes inline scripts only', () => {
    expect(inlineScriptHashes(shell)).toEqual([sha]);
    expect(inlineScriptHashes('<script src="/a.js"></script><script> </script>')).toEqual([]);
  });

  it('turns configured URLs into sources, and refuses what would break the header', () => {
    expect(sourceOfUrl('https://{s}.tile.example.org/{z}/{x}/{y}.png')).toBe('https://*.tile.example.org');
    expect(sourceOfUrl('https://tile{s}.example.org/{z}')).toBe('https://*.example.org');
    expect(sourceOfUrl('//maps.example.org/x')).toBe('maps.example.org');
    expect(sourceOfUrl('/tiles/{z}/{x}/{y}.png')).toBeNull();
    expect(sourceOfUrl("https://a.example.org;script-src 'unsafe-inline'/")).toBeNull();
    expect(sourceOfUrl('https://{s}/x')).toBeNull();
  });

  it('reads the embedding and extra origins from the environment, and refuses what is not an origin', () => {
    const config = loadConfig({
      BATHYLOG_FRAME_ANCESTORS: 'https://wiki.example.org, https://portal.example.org:8443',
      BATHYLOG_CSP_EXTRA_ORIGINS: 'https://*.tiles.example.org',
      BATHYLOG_DATA: os.tmpdir(),
    });
    const csp = clientPolicy(config, []);
    expect(csp).toContain("frame-ancestors 'self' https://wiki.example.org https://portal.example.org:8443");
    expect(csp).toMatch(/img-src [^;]*https:\/\/\*\.tiles\.example\.org/);
    expect(csp).toMatch(/connect-src [^;]*https:\/\/\*\.tiles\.example\.org/);
    expect(() => loadConfig({ BATHYLOG_FRAME_ANCESTORS: "https://a.org; script-src 'unsafe-inline'" })).toThrow(
      /contentSecurityPolicy\.frameAncestors/,
    );
  });

  it('allows reCAPTCHA only with a site key, and leaves out origins that are not origins', () => {
    const plain = clientPolicy(loadConfig({}, { dataDir: os.tmpdir() }), []);
    expect(plain).not.toContain('google');
    const config = loadConfig(
      {},
      {
        dataDir: os.tmpdir(),
        client: { recaptchaSiteKey: 'key', loginWithTokenOrigins: ['https://ok.example.org', 'x; script-src *'] },
      },
    );
    const withKey = clientPolicy(config, []);
    expect(withKey).toContain("script-src 'self' https://www.google.com/recaptcha/ https://www.gstatic.com/recaptcha/");
    expect(withKey).toContain("frame-ancestors 'self' https://ok.example.org");
    expect(withKey).not.toContain('script-src *');
  });
});
