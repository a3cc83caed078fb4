import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { messages, wsPath } from '@bathylog/shared';
import { createTestApp, engines, type TestApp } from '../../../test/test-app.js';
import { listenInRange, RawClient, scriptHello } from '../../realtime/testing/ws-test-client.js';

interface Created {
  id: string;
  key: string;
  name: string;
  key_prefix: string;
  roles: string[];
  created: string;
  created_by: string;
  expires: string | null;
  last_used: string | null;
  last_used_address: string | null;
  revoked: string | null;
  revoked_by: string | null;
}

const unauthorized = (message: string) => ({
  statusCode: 401,
  error: 'Unauthorized',
  message,
  attributes: { error: message },
});

/**
 * Device keys (docs/roles-and-access.md#device-keys): named, role-limited, shown once, stored
 * hashed, revocable, rate limited.
 */
describe.each(engines)('device keys on %s', (engine) => {
  let t: TestApp;
  let admin: string;
  let counter = 0;
  const sockets: RawClient[] = [];

  const createKey = async (body: Record<string, unknown> = {}) => {
    counter++;
    const res = await t.api('POST', '/device_keys', {
      token: admin,
      body: { name: `StreamDeck ${counter}`, roles: ['event_logger'], ...body },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as Created;
  };

  beforeAll(async () => {
    t = await createTestApp(engine, { realtime: { authRecheckMs: 60_000 } });
    admin = await t.login('admin', 'demo');
  });
  afterEach(() => {
    vi.useRealTimers();
    for (const s of sockets.splice(0)) s.close();
  });
  afterAll(() => t?.close());

  it('an admin creates a named key with chosen roles; the key is shown once and stored only hashed', async () => {
    const created = await createKey({ name: 'ASNAP script', roles: ['event_logger', 'event_watcher'] });
    expect(created.key).toMatch(/^bk_[A-Za-z0-9_-]{43}$/);
    expect(created).toMatchObject({
      name: 'ASNAP script',
      roles: ['event_logger', 'event_watcher'],
      created_by: 'admin',
      expires: null,
      last_used: null,
      revoked: null,
      key_prefix: created.key.slice(0, 8),
    });
    const listed = (await t.api('GET', '/device_keys', { token: admin })).json() as Created[];
    const row = listed.find((k) => k.id === created.id)!;
    expect(row).toEqual({ ...created, key: undefined });
    expect(JSON.stringify(listed)).not.toContain(created.key);
    // The database never holds the key: not in any column of any row.
    const rows = await t.ctx.database.db.selectFrom('device_keys').selectAll().execute();
    expect(rows.length).toBeGreaterThan(0);
    expect(JSON.stringify(rows)).not.toContain(created.key);
    expect(JSON.stringify(rows)).not.toContain(created.key.slice(3));
  });

  it('a key works wherever a Bearer token works, and records when and from where it was last used', async () => {
    const created = await createKey({ roles: ['event_logger', 'event_watcher'] });
    const logged = await t.api('POST', '/events', { token: created.key, body: { event_value: 'FROM_DECK' } });
    expect(logged.statusCode, logged.body).toBe(201);
    const id = (logged.json() as { insertedId: string }).insertedId;
    const event = (await t.api('GET', `/events/${id}`, { token: created.key })).json() as { event_author: string };
    expect(event.event_author).toBe(created.name);
    // A bare Authorization header (no "Bearer"), as some scripts send it.
    const bare = await t.api('GET', `/events/${id}`, { headers: { authorization: created.key } });
    expect(bare.statusCode).toBe(200);
    const row = ((await t.api('GET', '/device_keys', { token: admin })).json() as Created[]).find(
      (k) => k.id === created.id,
    )!;
    expect(row.last_used).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(row.last_used_address).toBe('127.0.0.1');
  });

  it('a key limited to event_logger cannot read users or delete events', async () => {
    const created = await createKey({ roles: ['event_logger'] });
    expect((await t.api('GET', '/users', { token: created.key })).json()).toEqual({
      statusCode: 403,
      error: 'Forbidden',
      message: messages.insufficientScope,
    });
    const other = await t.api('POST', '/events', { token: admin, body: { event_value: 'ADMIN_EVENT' } });
    const otherId = (other.json() as { insertedId: string }).insertedId;
    const del = await t.api('DELETE', `/events/${otherId}`, { token: created.key });
    expect(del.statusCode).toBeGreaterThanOrEqual(400);
    expect(del.statusCode).toBeLessThan(500);
    expect((await t.api('GET', `/events/${otherId}`, { token: admin })).statusCode).toBe(200);
    expect((await t.api('GET', '/device_keys', { token: created.key })).statusCode).toBe(403);
    expect((await t.api('GET', '/auth/profile/token', { token: created.key })).statusCode).toBe(403);
  });

  it('a revoked key stops at the next request and on an open websocket', async () => {
    const port = await listenInRange(t.app);
    const created = await createKey({ roles: ['event_logger', 'event_watcher'] });
    const socket = await RawClient.open(port);
    sockets.push(socket);
    expect((await socket.call(scriptHello(created.key, [wsPath('newEvents')]))).type).toBe('hello');
    const pub = socket.nextPub(wsPath('newEvents'));
    await t.api('POST', '/events', { token: admin, body: { event_value: 'SEEN_BY_KEY' } });
    expect(await pub).toMatchObject({ event_value: 'SEEN_BY_KEY' });

    expect((await t.api('DELETE', `/device_keys/${created.id}`, { token: admin })).statusCode).toBe(204);
    expect(await socket.closed).toEqual({ code: 1008, reason: messages.deviceKeyRevoked });
    expect((await t.api('GET', '/events', { token: created.key })).json()).toEqual(
      unauthorized('This device key has been revoked'),
    );
    const row = ((await t.api('GET', '/device_keys', { token: admin })).json() as Created[]).find(
      (k) => k.id === created.id,
    )!;
    expect(row).toMatchObject({ revoked_by: 'admin', revoked: expect.stringMatching(/^\d{4}-/) });
    expect((await t.api('DELETE', `/device_keys/${created.id}`, { token: admin })).json()).toMatchObject({
      statusCode: 400,
      message: 'The device key is already revoked',
    });
    // A hello with the revoked key is refused.
    const again = await RawClient.open(port);
    sockets.push(again);
    expect(await again.call(scriptHello(created.key, []))).toMatchObject({
      statusCode: 401,
      payload: { message: messages.deviceKeyRevoked },
    });
  });

  it('a key past its expiry is refused', async () => {
    const created = await createKey({ expires: new Date(Date.now() + 60_000).toISOString() });
    expect((await t.api('GET', '/events', { token: created.key })).statusCode).not.toBe(401);
    vi.useFakeTimers({ now: Date.now() + 61_000, toFake: ['Date'] });
    expect((await t.api('GET', '/events', { token: created.key })).json()).toEqual(
      unauthorized('This device key has expired'),
    );
  });

  it('validates the create body and refuses unknown keys', async () => {
    const cases: Array<[unknown, number, string]> = [
      [{ name: '', roles: ['event_logger'] }, 400, '"name" is not allowed to be empty'],
      [{ name: 'x', roles: [] }, 400, '"roles" must contain at least 1 items'],
      [
        { name: 'x', roles: ['superuser'] },
        400,
        '"roles[0]" must be one of [admin, cruise_manager, event_manager, template_manager, event_logger, power_logger, aux_data_inserter, event_watcher, guest, follower, full_follower]',
      ],
      [{ name: 'x', roles: ['event_logger'], expires: 'soon' }, 400, '"expires" must be a valid ISO 8601 date'],
      [
        { name: 'x', roles: ['event_logger'], expires: '2001-01-01T00:00:00.000Z' },
        400,
        '"expires" must be in the future',
      ],
    ];
    for (const [body, status, message] of cases) {
      const res = await t.api('POST', '/device_keys', { token: admin, body });
      expect(res.json(), JSON.stringify(body)).toMatchObject({ statusCode: status, message });
    }
    await createKey({ name: 'Twin' });
    expect(
      (await t.api('POST', '/device_keys', { token: admin, body: { name: 'twin', roles: ['event_logger'] } })).json(),
    ).toEqual({
      statusCode: 409,
      error: 'Conflict',
      message: 'A device key named twin already exists',
    });
    const unknown = `bk_${'A'.repeat(43)}`;
    expect((await t.api('GET', '/events', { token: unknown })).json()).toEqual(
      unauthorized(messages.invalidCredentials),
    );
    expect((await t.api('DELETE', `/device_keys/${'f'.repeat(24)}`, { token: admin })).statusCode).toBe(404);
  });
});

describe.each(engines)('write rate limits on %s', (engine) => {
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    t = await createTestApp(engine, { writeRateLimit: { perKey: 3, perAddress: 6 } });
    admin = await t.login('admin', 'demo');
  });
  afterAll(() => t?.close());

  it('limits authenticated writes per key and per user when configured, never per address; reads are not limited', async () => {
    const res = await t.api('POST', '/device_keys', { token: admin, body: { name: 'Bot', roles: ['event_logger'] } });
    const { key } = res.json() as { key: string };
    // The admin's create was its first counted write.
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      statuses.push((await t.api('POST', '/events', { token: key, body: { event_value: `BOT${i}` } })).statusCode);
    }
    expect(statuses).toEqual([201, 201, 201, 429]);
    const limited = await t.api('POST', '/events', { token: key, body: { event_value: 'BOT' } });
    expect(limited.json()).toEqual({
      statusCode: 429,
      error: 'Too Many Requests',
      message: expect.stringMatching(/^Too many requests, try again in \d+ seconds?$/),
    });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await t.api('GET', '/events', { token: key })).statusCode).toBe(200);
    // The admin's own count: the same address sent 7 writes, which does not matter.
    const admins: number[] = [];
    for (let i = 0; i < 3; i++) {
      admins.push((await t.api('POST', '/events', { token: admin, body: { event_value: `ADMIN${i}` } })).statusCode);
    }
    expect(admins).toEqual([201, 201, 429]);
  });
});
