import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newObjectId, type Ship } from '@bathylog/shared';
import { refusedShipAddressMessage } from '../src/lib/ship-address.js';
import { keyNeededMessage } from '../src/modules/sync/ships.service.js';
import { createTestApp, type TestApp } from './test-app.js';

/**
 * What a shore's admin may point a ship at, and what the shore says back
 * (docs/security.md#a-followed-ship): no loopback or link-local address, the key asked again for
 * a new host, and the ship's answers never reflected.
 */
async function waitFor<T>(what: string, fn: () => Promise<T | undefined | null | false>, timeoutMs = 20_000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const v = await fn();
    if (v) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Something at an address that is no ship: it answers every request with a banner. */
async function banner(): Promise<{ url: string; requests: () => number; close(): Promise<void> }> {
  let requests = 0;
  const server = http.createServer((req, res) => {
    requests++;
    req.resume();
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ message: 'SSH-2.0-OpenSSH_9.6 internal-db-7' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    requests: () => requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('a shore with the default configuration', () => {
  let shore: TestApp;
  let admin: string;
  beforeAll(async () => {
    shore = await createTestApp('sqlite', { sync: { pollIntervalMs: 100 } });
    admin = await shore.login('admin', 'demo');
  }, 60_000);
  afterAll(async () => shore?.close());

  it('refuses a loopback or link-local address for a ship, adding or changing it', async () => {
    const refused = { statusCode: 400, error: 'Bad Request', message: refusedShipAddressMessage };
    for (const url of ['http://127.0.0.1:22', 'http://localhost:8000', 'http://169.254.169.254', 'http://[::1]']) {
      const res = await shore.api('POST', '/ships', { token: admin, body: { name: 'x', url, key: 'bl_k' } });
      expect(res.json(), url).toEqual(refused);
    }
    expect((await shore.api('GET', '/ships', { token: admin })).json()).toEqual([]);

    // A private network is where ships are: allowed.
    const added = await shore.api('POST', '/ships', {
      token: admin,
      body: { name: 'Private', url: 'http://10.255.255.1:8000', key: 'bl_k' },
    });
    expect(added.statusCode).toBe(201);
    const id = (added.json() as Ship).id;
    await shore.api('PATCH', `/ships/${id}`, { token: admin, body: { enabled: false } });
    const moved = await shore.api('PATCH', `/ships/${id}`, {
      token: admin,
      body: { url: 'http://169.254.169.254', key: 'bl_k' },
    });
    expect(moved.json()).toEqual(refused);
  });

  it('asks for the key again when the address moves to another host, and only then', async () => {
    const added = await shore.api('POST', '/ships', {
      token: admin,
      body: { name: 'Moving', url: 'http://10.255.255.2:8000', key: 'bl_old' },
    });
    const id = (added.json() as Ship).id;
    await shore.api('PATCH', `/ships/${id}`, { token: admin, body: { enabled: false } });
    const keyOf = async () =>
      (
        await shore.ctx.database.db
          .selectFrom('sync_ships')
          .select('device_key')
          .where('id', '=', id)
          .executeTakeFirst()
      )?.device_key;

    for (const url of ['http://10.255.255.3:8000', 'http://10.255.255.2:8001', 'https://10.255.255.2:8000']) {
      const res = await shore.api('PATCH', `/ships/${id}`, { token: admin, body: { url } });
      expect(res.json(), url).toEqual({ statusCode: 400, error: 'Bad Request', message: keyNeededMessage });
    }
    expect(((await shore.api('GET', '/ships', { token: admin })).json() as Ship[]).find((s) => s.id === id)?.url).toBe(
      'http://10.255.255.2:8000',
    );
    // The same host under another path keeps its key; another host with its key is fine.
    const samehost = await shore.api('PATCH', `/ships/${id}`, {
      token: admin,
      body: { url: 'http://10.255.255.2:8000/ship' },
    });
    expect(samehost.statusCode).toBe(200);
    expect(await keyOf()).toBe('bl_old');
    const withKey = await shore.api('PATCH', `/ships/${id}`, {
      token: admin,
      body: { url: 'http://10.255.255.3:8000', key: 'bl_new' },
    });
    expect(withKey.statusCode).toBe(200);
    expect(await keyOf()).toBe('bl_new');
  });

  it('does not connect to a loopback address stored before the rule', async () => {
    const other = await banner();
    try {
      const id = newObjectId();
      await shore.ctx.database.db
        .insertInto('sync_ships')
        .values({
          id,
          name: 'Stored before',
          url: other.url,
          device_key: 'bl_k',
          enabled: 1,
          bandwidth_kbps: null,
          cursor: null,
          state: 'catching_up',
          last_contact: null,
          last_error: null,
          head: null,
          behind_records: 0,
          behind_bytes: 0,
          created_at: Date.now(),
        })
        .execute();
      await shore.api('PATCH', `/ships/${id}`, { token: admin, body: { enabled: true } });
      const ship = await waitFor('the ship refused', async () => {
        const s = ((await shore.api('GET', '/ships', { token: admin })).json() as Ship[]).find((x) => x.id === id);
        return s?.last_error ? s : null;
      });
      expect(ship.last_error).toBe(refusedShipAddressMessage);
      expect(other.requests()).toBe(0);
      await shore.api('DELETE', `/ships/${id}`, { token: admin });
    } finally {
      await other.close();
    }
  });
});

describe("a ship's failures on the shore's status", () => {
  let shore: TestApp;
  let admin: string;
  beforeAll(async () => {
    shore = await createTestApp('sqlite', { sync: { pollIntervalMs: 100, allowPrivateHosts: true } });
    admin = await shore.login('admin', 'demo');
  }, 60_000);
  afterAll(async () => shore?.close());

  const lastError = async (name: string, url: string) => {
    const id = ((await shore.api('POST', '/ships', { token: admin, body: { name, url, key: 'bl_k' } })).json() as Ship)
      .id;
    const ship = await waitFor(`${name} failing`, async () => {
      const s = ((await shore.api('GET', '/ships', { token: admin })).json() as Ship[]).find((x) => x.id === id);
      return s?.last_error ? s : null;
    });
    await shore.api('DELETE', `/ships/${id}`, { token: admin });
    return ship.last_error;
  };

  it("are in the shore's own words, never the answer's status or text", async () => {
    const other = await banner();
    try {
      const shown = await lastError('Banner', other.url);
      expect(shown).toBe('The ship answered with an error');
      expect(shown).not.toMatch(/404|SSH/);
    } finally {
      await other.close();
    }
    // A port nothing listens on (the banner's, now closed).
    expect(await lastError('Closed', other.url)).toBe('The ship cannot be reached');
  });
});
