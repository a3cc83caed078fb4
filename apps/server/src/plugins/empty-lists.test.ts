import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyListHeader, messages } from '@bathylog/shared';
import { createCruise } from '../../test/api-fixtures.js';
import { createTestApp, engines, type TestApp } from '../../test/test-app.js';

/**
 * Empty lists (docs/wire.md#empty-lists): stock Sealog clients and scripts get `404 No records
 * found` and turn it into "nothing"; Bathylog's own client asks with a header for `200 []`, so an
 * ordinary empty screen does not fill the browser console with failed requests.
 */
describe.each(engines)('empty lists on %s', (engine) => {
  let t: TestApp;
  let token: string;
  const ours = { [emptyListHeader]: '200' };
  const emptyLists = ['/cruises', '/lowerings', '/events', '/custom_vars?name=nothing_here', '/event_aux_data'];

  beforeAll(async () => {
    t = await createTestApp(engine);
    token = await t.login('admin', 'demo');
  });
  afterAll(() => t.close());

  for (const url of emptyLists) {
    it(`GET ${url}: 404 "No records found" for a stock client`, async () => {
      const res = await t.api('GET', url, { token });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ statusCode: 404, error: 'Not Found', message: messages.noRecords });
    });

    it(`GET ${url}: 200 [] for a client that asks for it`, async () => {
      const res = await t.api('GET', url, { token, headers: ours });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.json()).toEqual([]);
    });
  }

  it('a missing single record stays a 404 with the header', async () => {
    const res = await t.api('GET', '/cruises/5981f167212b348aed7fa9f5', { token, headers: ours });
    expect(res.statusCode).toBe(404);
  });

  it('an empty CSV export stays a 404 with the header', async () => {
    const res = await t.api('GET', '/events?format=csv', { token, headers: ours });
    expect(res.statusCode).toBe(404);
  });

  it('an unauthenticated read is still refused with the header', async () => {
    const res = await t.api('GET', '/cruises', { headers: ours });
    expect(res.statusCode).toBe(401);
  });

  it('a list with records answers them either way', async () => {
    await createCruise(t, token, { cruise_id: 'EMPTY-1' });
    for (const headers of [{}, ours]) {
      const res = await t.api('GET', '/cruises', { token, headers });
      expect(res.statusCode).toBe(200);
      expect((res.json() as Array<{ cruise_id: string }>).map((c) => c.cruise_id)).toEqual(['EMPTY-1']);
    }
  });

  it('a cross-origin client may send the header (preflight)', async () => {
    const res = await t.app.inject({
      method: 'OPTIONS',
      url: '/sealog-server/api/v1/cruises',
      headers: {
        origin: 'http://vessel-client.local',
        'access-control-request-method': 'GET',
        'access-control-request-headers': emptyListHeader,
      },
    });
    expect(String(res.headers['access-control-allow-headers']).toLowerCase()).toContain(emptyListHeader);
  });
});
