import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConfigInput } from '../src/config.js';
import { systemIds } from '../src/seed/system.js';
import { insertAux, insertCruise, insertEvents, insertLowering, navData } from './table-fixtures.js';
import { createTestApp, engines, type TestApp } from './test-app.js';

/**
 * Records copied from a followed ship keep the ship's access lists, whose user ids mean nothing on
 * the shore (and may even equal a shore account's: the seeded guest has the same id everywhere). A
 * copied cruise or lowering with a list is therefore open to the shore's admins only, whatever the
 * shore's access-control and archive settings: the shore's guest reaches nothing of it through any
 * route of the route table, while the admin reads all of it and an uncopied record with the same
 * list stays as before.
 */

const api = '/sealog-server/api/v1';
const tinyPng = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

const settings: Array<[string, ConfigInput]> = [
  ['defaults', {}],
  ['access control on', { useAccessControl: true }],
  ['public archive on', { publicArchive: true }],
];

describe.each(engines.flatMap((e) => settings.map(([name, config]) => [e, name, config] as const)))(
  'a ship-restricted copy on the shore (%s, %s)',
  (engine, _name, config) => {
    let t: TestApp;
    let admin: string;
    let guest: string;
    let ids: string[];
    const markers = ['SECRETSHIP', 'ship_grab'];

    beforeAll(async () => {
      t = await createTestApp(engine, config);
      admin = await t.login('admin', 'demo');
      guest = await t.login('guest', '');
      const db = t.ctx.database.db;
      // The ship's list names the ship's guest, whose id is the shore guest's too.
      const accessList = [systemIds.guest, '64b7f0c2a1b2c3d4e5f60718'];
      const cruise = await insertCruise(db, {
        cruise_id: 'SHIP01',
        start_ts: '2024-05-01T00:00:00.000Z',
        stop_ts: '2024-05-31T00:00:00.000Z',
        accessList,
      });
      const lowering = await insertLowering(db, {
        lowering_id: 'SD0001',
        start_ts: '2024-05-10T00:00:00.000Z',
        stop_ts: '2024-05-11T00:00:00.000Z',
        accessList,
      });
      if (config.publicArchive) {
        await db.updateTable('cruises').set({ cruise_public: 1 }).where('id', '=', cruise).execute();
      }
      const events = await insertEvents(db, [
        { ts: Date.parse('2024-05-10T12:00:00.000Z'), event_value: 'SECRETSHIP', event_author: 'ship' },
        { ts: Date.parse('2024-05-20T12:00:00.000Z'), event_value: 'SECRETSHIP', event_author: 'ship' },
      ]);
      const aux = await insertAux(db, [
        navData(events[0]!, 1),
        {
          event_id: events[0]!,
          data_source: 'framegrabber',
          data_array: [{ data_name: 'filename', data_value: '/grabs/ship_grab.png' }],
        },
      ]);
      mkdirSync(t.ctx.paths.images, { recursive: true });
      writeFileSync(path.join(t.ctx.paths.images, 'ship_grab.png'), tinyPng);
      const ship = '0123456789abcdef01234567';
      await db
        .insertInto('sync_origins')
        .values([
          { record_type: 'cruise', record_id: cruise, ship_id: ship },
          { record_type: 'lowering', record_id: lowering, ship_id: ship },
          ...events.map((id) => ({ record_type: 'event', record_id: id, ship_id: ship })),
          ...aux.map((id) => ({ record_type: 'event_aux_data', record_id: id, ship_id: ship })),
        ])
        .execute();
      ids = [cruise, lowering, ...events, ...aux];
      markers.push(...ids);
    });
    afterAll(() => t?.close());

    const call = (method: string, url: string, token: string, payload?: unknown) =>
      t.app.inject({
        method: method as 'GET',
        url,
        headers: { authorization: `Bearer ${token}` },
        ...(payload !== undefined ? { payload: payload as object } : {}),
      });

    it('the shore guest reaches nothing of it through any route of the route table', async () => {
      const routes = t.routes.filter(
        (r) => r.url.startsWith('/sealog-server') && !r.url.endsWith('/auth/signOutEverywhere'),
      );
      const leaks: string[] = [];
      for (const route of routes) {
        const isWrite = !['GET', 'HEAD'].includes(route.method);
        const bases = route.url.endsWith('*')
          ? [`${route.url.slice(0, -1)}ship_grab.png`]
          : route.url.includes(':')
            ? ids.map((id) => route.url.replace(/:[A-Za-z_0-9]+/g, id))
            : [route.url];
        for (const base of bases) {
          const urls =
            route.method === 'GET' && base === route.url
              ? ['', '?value=SECRETSHIP', '?format=csv', '?lowering_id=SD0001', '?cruise_id=SHIP01'].map(
                  (q) => base + q,
                )
              : [base];
          for (const url of urls) {
            const res = await call(route.method, url, guest, isWrite ? {} : undefined);
            const where = `${route.method} ${url}: ${res.statusCode} ${res.body.slice(0, 160)}`;
            expect(res.statusCode, where).toBeLessThan(500);
            const found = markers.filter((m) => res.body.includes(m) && !url.includes(m));
            if (found.length > 0) leaks.push(`${where} → ${found.join(', ')}`);
            if (isWrite && base !== route.url && res.statusCode < 300) leaks.push(`${where} (changed)`);
          }
        }
      }
      expect(leaks).toEqual([]);
      expect((await call('GET', `${api}/cruises`, guest)).statusCode).not.toBe(401);
      // An image answers bytes no marker is found in: its status says it.
      for (const url of [
        '/sealog-server/files/images/ship_grab.png',
        '/sealog-server/files/images/ship_grab.png?w=160',
      ]) {
        expect((await call('GET', url, guest)).statusCode, url).toBe(404);
        expect((await t.app.inject({ method: 'GET', url })).statusCode, url).not.toBe(200);
      }
    }, 300_000);

    it('the shore admin reads all of it', async () => {
      const events = await call('GET', `${api}/events/bylowering/${ids[1]}`, admin);
      expect(events.statusCode).toBe(200);
      expect(events.body).toContain('SECRETSHIP');
      expect((await call('GET', `${api}/cruises/${ids[0]}`, admin)).json()).toMatchObject({ cruise_id: 'SHIP01' });
      // Without access control or the archive the image route reads no token (stock clients load
      // images without one), so it serves a restricted copy's images to nobody.
      const image = await call('GET', '/sealog-server/files/images/ship_grab.png', admin);
      expect(image.statusCode).toBe(config.useAccessControl || config.publicArchive ? 200 : 404);
    });
  },
);
