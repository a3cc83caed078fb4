import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverRoot } from '../src/lib/paths.js';
import { createTestApp, engines, type TestApp } from './test-app.js';

/** Dive S0492 of the demo cruise: 4,540 events, as a Sealog import script replays them. */
const diveEvents = JSON.parse(
  readFileSync(path.join(serverRoot, 'demo', 'FKt230303_S0492_eventOnlyExport.json'), 'utf8'),
) as Array<Record<string, unknown>>;

const eventFields = ['id', 'ts', 'event_author', 'event_value', 'event_free_text', 'event_options'];
const body = (e: Record<string, unknown>) => Object.fromEntries(eventFields.map((k) => [k, e[k]]));

/** Posts every event one per request, a few at a time as import scripts do; answers each status. */
async function replay(t: TestApp, token: string): Promise<Map<number, number>> {
  const statuses = new Map<number, number>();
  const inFlight = 4;
  for (let i = 0; i < diveEvents.length; i += inFlight) {
    const answers = await Promise.all(
      diveEvents.slice(i, i + inFlight).map((e) => t.api('POST', '/events', { token, body: body(e) })),
    );
    for (const a of answers) statuses.set(a.statusCode, (statuses.get(a.statusCode) ?? 0) + 1);
  }
  return statuses;
}

describe.each(engines)('write limits with the default configuration on %s', (engine) => {
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    // `{}`: the shipped defaults, not the suites' "no limits".
    t = await createTestApp(engine, { writeRateLimit: {} });
    admin = await t.login('admin', 'demo');
  });
  afterAll(() => t?.close());

  const stored = async () => (await t.api('GET', '/events/count', { token: admin })).json() as { events: number };

  it('stores all 4,540 events of a dive posted one per request with one token, then with one device key', async () => {
    expect(diveEvents).toHaveLength(4540);
    // A retry (CI retries a test that timed out on a loaded machine) starts from an empty log too.
    expect((await t.api('DELETE', '/events/all', { token: admin })).statusCode).toBe(204);
    expect(await replay(t, admin)).toEqual(new Map([[201, 4540]]));
    expect(await stored()).toEqual({ events: 4540 });

    expect((await t.api('DELETE', '/events/all', { token: admin })).statusCode).toBe(204);
    const made = await t.api('POST', '/device_keys', {
      token: admin,
      body: { name: 'Import bot', roles: ['event_logger', 'event_watcher'] },
    });
    const { key } = made.json() as { key: string };
    expect(await replay(t, key)).toEqual(new Map([[201, 4540]]));
    expect(await stored()).toEqual({ events: 4540 });
  }, 300_000);

  it('limits writes that name no caller per address, with Retry-After; other addresses and tokens go on', async () => {
    const from = (remoteAddress: string) =>
      t.app.inject({
        method: 'POST',
        url: '/sealog-server/api/v1/auth/login',
        payload: {},
        remoteAddress,
      });
    const statuses: number[] = [];
    for (let i = 0; i < 121; i++) statuses.push((await from('10.1.1.1')).statusCode);
    expect(statuses.slice(0, 120).every((s) => s === 400)).toBe(true);
    const limited = await from('10.1.1.1');
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({
      statusCode: 429,
      error: 'Too Many Requests',
      message: expect.stringMatching(/^Too many requests, try again in \d+ seconds?$/),
    });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    for (const route of [
      { method: 'POST', url: '/auth/register' },
      { method: 'POST', url: '/auth/forgotPassword' },
      { method: 'PATCH', url: '/auth/resetPassword' },
    ] as const) {
      const res = await t.app.inject({
        method: route.method,
        url: `/sealog-server/api/v1${route.url}`,
        payload: {},
        remoteAddress: '10.1.1.1',
      });
      expect(res.statusCode, route.url).toBe(429);
    }
    expect((await from('10.1.1.2')).statusCode).toBe(400);
    // A logged-in caller at the limited address still writes.
    const write = await t.app.inject({
      method: 'POST',
      url: '/sealog-server/api/v1/events',
      headers: { authorization: `Bearer ${admin}` },
      payload: { event_value: 'SAME ADDRESS' },
      remoteAddress: '10.1.1.1',
    });
    expect(write.statusCode).toBe(201);
  });
});

describe.each(engines)('client addresses behind a proxy on %s', (engine) => {
  const apps: TestApp[] = [];
  let bots = 0;
  afterAll(async () => {
    for (const t of apps) await t.close();
  });

  /** Logins with a bad body from `remoteAddress`, each claiming a new X-Forwarded-For address. */
  async function statuses(t: TestApp, remoteAddress: string, count: number): Promise<number[]> {
    const out: number[] = [];
    for (let i = 0; i < count; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/sealog-server/api/v1/auth/login',
        headers: { 'x-forwarded-for': `172.16.0.${i + 1}` },
        payload: {},
        remoteAddress,
      });
      out.push(res.statusCode);
    }
    return out;
  }

  /** The address the server records for a device key's use when the request claims `forwarded`. */
  async function recordedAddress(t: TestApp, remoteAddress: string, forwarded: string): Promise<string | null> {
    const admin = await t.login('admin', 'demo');
    const made = await t.api('POST', '/device_keys', {
      token: admin,
      body: { name: `Bot ${++bots}`, roles: ['event_watcher'] },
    });
    const { id, key } = made.json() as { id: string; key: string };
    await t.app.inject({
      method: 'GET',
      url: '/sealog-server/api/v1/events',
      headers: { authorization: `Bearer ${key}`, 'x-forwarded-for': forwarded },
      remoteAddress,
    });
    const keys = (await t.api('GET', '/device_keys', { token: admin })).json() as Array<{
      id: string;
      last_used_address: string | null;
    }>;
    return keys.find((k) => k.id === id)!.last_used_address;
  }

  it('ignores X-Forwarded-For by default: a client cannot pick its address', async () => {
    const t = await createTestApp(engine, { writeRateLimit: { perAddress: 3 } });
    apps.push(t);
    expect(await statuses(t, '10.2.2.2', 4)).toEqual([400, 400, 400, 429]);
    expect(await recordedAddress(t, '10.2.2.3', '203.0.113.7')).toBe('10.2.2.3');
  });

  it('takes the client address from X-Forwarded-For when the request comes from a configured proxy', async () => {
    const t = await createTestApp(engine, { writeRateLimit: { perAddress: 3 }, trustProxy: ['10.9.0.0/16'] });
    apps.push(t);
    // Each forwarded client has its own count behind the proxy.
    expect(await statuses(t, '10.9.0.1', 4)).toEqual([400, 400, 400, 400]);
    expect(await recordedAddress(t, '10.9.0.1', '203.0.113.7')).toBe('203.0.113.7');
    // Not from the proxy: the header is ignored.
    expect(await statuses(t, '10.8.0.1', 4)).toEqual([400, 400, 400, 429]);
    expect(await recordedAddress(t, '10.8.0.1', '203.0.113.8')).toBe('10.8.0.1');
  });
});
