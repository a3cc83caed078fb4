import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import Nes from '@hapi/nes';
import { messages, wsPath } from '@bathylog/shared';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestApp, engines, openTestDatabase, type TestApp } from '../../test/test-app.js';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { listenInRange, RawClient } from './testing/ws-test-client.js';

const newEventsPath = wsPath('newEvents');
const clientOrigin = 'http://vehicle-client.ship.local:8080';

/**
 * Socket authentication (docs/wire.md#socket-authentication): the stock Sealog vehicle client 2.3.5
 * sends its hello without a usable token (it passes its header function, which JSON drops) and
 * keeps its session in the `token` cookie. The cookie of the upgrade request stands in, from the
 * server's own origin or a configured one.
 */
describe.each(engines)('websocket hello with the session cookie on %s', (engine) => {
  let t: TestApp;
  let port: number;
  let admin: string;
  const open: RawClient[] = [];

  beforeAll(async () => {
    t = await createTestApp(engine, { allowedOrigins: [clientOrigin] });
    port = await listenInRange(t.app);
    admin = await t.login('admin', 'demo');
  });
  afterEach(() => {
    for (const c of open.splice(0)) c.close();
  });
  afterAll(() => t?.close());

  const logEvent = async (value: string) => {
    const res = await t.api('POST', '/events', { token: admin, body: { event_value: value } });
    expect(res.statusCode).toBe(201);
  };

  it('the unmodified nes client, hello without auth and the cookie on the upgrade, receives newEvents', async () => {
    const client = new Nes.Client(`ws://127.0.0.1:${port}/ws`, {
      ws: { headers: { origin: clientOrigin, cookie: `theme=dark; token=${admin}; id=x` } },
    });
    // What Sealog's client does: `auth` is a function, so the hello goes out without it.
    const headerFunction = () => ({ headers: { Authorization: admin } });
    await client.connect({ auth: headerFunction as unknown as object, reconnect: false });
    try {
      let deliver: (message: unknown) => void = () => undefined;
      const received = new Promise<unknown>((resolve) => (deliver = resolve));
      await client.subscribe(newEventsPath, (message: unknown) => deliver(message));
      await logEvent('COOKIE_HELLO');
      expect(await received).toMatchObject({ event_value: 'COOKIE_HELLO', event_author: 'admin' });
    } finally {
      await client.disconnect();
    }
  });

  it("the server's own origin may use the cookie too", async () => {
    const c = await RawClient.open(port, {
      headers: { origin: `http://127.0.0.1:${port}`, cookie: `token=${encodeURIComponent(admin)}` },
    });
    open.push(c);
    expect((await c.call({ type: 'hello', id: 1, version: '2', subs: [newEventsPath] })).type).toBe('hello');
    const pub = c.nextPub(newEventsPath);
    await logEvent('OWN_ORIGIN');
    expect(await pub).toMatchObject({ event_value: 'OWN_ORIGIN' });
  });

  it('a cross-origin upgrade carrying the cookie is refused', async () => {
    const refused = await RawClient.open(port, {
      headers: { origin: 'http://evil.example', cookie: `token=${admin}` },
    }).then(
      () => null,
      (err: Error) => err,
    );
    expect(refused?.message).toMatch(/403/);
  });

  it('a hello without auth and without a cookie is still refused, as is a cookie without an Origin', async () => {
    const bare = await RawClient.open(port, { headers: { origin: clientOrigin } });
    open.push(bare);
    expect(await bare.call({ type: 'hello', id: 1, version: '2', subs: [newEventsPath] })).toMatchObject({
      type: 'hello',
      statusCode: 401,
      payload: { message: messages.missingAuth },
    });
    // Not a browser (no Origin): the cookie is not used; the hello must carry the token.
    const script = await RawClient.open(port, { headers: { cookie: `token=${admin}` } });
    open.push(script);
    expect(await script.call({ type: 'hello', id: 2, version: '2', subs: [] })).toMatchObject({
      statusCode: 401,
      payload: { message: messages.missingAuth },
    });
  });
});

describe('a refused websocket origin is named in the log', () => {
  it('one warning per origin, saying what to set', async () => {
    const lines: string[] = [];
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bathylog-test-'));
    const config = loadConfig(
      {},
      {
        mode: 'production',
        adminPassword: 'demo',
        dataDir,
        secret: 'test-secret',
        logLevel: 'warn',
        asnap: { enabled: false },
        freeSpaceIntervalSeconds: 0,
        webDir: path.join(dataDir, 'no-client'),
      },
    );
    const { database, drop } = await openTestDatabase('sqlite');
    const { app } = await buildApp({ config, database, logStream: { write: (line) => lines.push(line) } });
    try {
      await app.ready();
      const port = await listenInRange(app);
      const login = await app.inject({
        method: 'POST',
        url: '/sealog-server/api/v1/auth/login',
        payload: { username: 'admin', password: 'demo' },
      });
      const token = (login.json() as { token: string }).token;
      const stockClient = 'http://127.0.0.1:8080';
      for (let i = 0; i < 3; i++) {
        const refused = await RawClient.open(port, { headers: { origin: stockClient, cookie: `token=${token}` } }).then(
          () => null,
          (err: Error) => err,
        );
        expect(refused?.message).toMatch(/403/);
      }
      const warnings = lines
        .map((line) => JSON.parse(line) as { msg: string; origin?: string })
        .filter((entry) => entry.msg.startsWith('websocket refused'));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]!.origin).toBe(stockClient);
      expect(warnings[0]!.msg).toContain(`BATHYLOG_ALLOWED_ORIGINS="${stockClient}"`);
      expect(lines.join('\n')).not.toContain(token);
    } finally {
      await app.close();
      await drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
