import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app.js';

/**
 * A stock Sealog client served from another origin (port 80 beside the server's 8000) edits with
 * PATCH and DELETE and a Bearer token: the browser sends them only when the preflight allows the
 * method. A preflight that allowed only GET, HEAD and POST lost every edit without an error.
 */
describe('cross-origin requests of a client on another origin', () => {
  let t: TestApp;
  let token: string;
  const origin = 'http://vessel-client.local';

  beforeAll(async () => {
    t = await createTestApp('sqlite');
    token = await t.login('admin', 'demo');
  });
  afterAll(() => t.close());

  for (const method of ['PATCH', 'DELETE', 'PUT']) {
    it(`the preflight allows ${method} with an Authorization header`, async () => {
      const res = await t.app.inject({
        method: 'OPTIONS',
        url: '/sealog-server/api/v1/events/5981f167212b348aed7fa9f5',
        headers: {
          origin,
          'access-control-request-method': method,
          'access-control-request-headers': 'authorization,content-type',
        },
      });
      expect(res.statusCode).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBe(origin);
      expect(String(res.headers['access-control-allow-methods']).split(/,\s*/)).toContain(method);
      expect(String(res.headers['access-control-allow-headers']).toLowerCase()).toContain('authorization');
    });
  }

  it('a Bearer PATCH and DELETE from that origin change the event', async () => {
    const created = await t.api('POST', '/events', { token, body: { event_value: 'CORS' }, headers: { origin } });
    expect(created.statusCode).toBe(201);
    const id = (created.json() as { insertedId: string }).insertedId;
    const patched = await t.api('PATCH', `/events/${id}`, {
      token,
      headers: { origin },
      body: { event_options: [{ event_option_name: 'note', event_option_value: 'kept' }] },
    });
    expect(patched.statusCode).toBe(204);
    expect(patched.headers['access-control-allow-origin']).toBe(origin);
    const stored = (await t.api('GET', `/events/${id}`, { token })).json() as { event_options: unknown[] };
    expect(stored.event_options).toEqual([{ event_option_name: 'note', event_option_value: 'kept' }]);
    expect((await t.api('DELETE', `/events/${id}`, { token, headers: { origin } })).statusCode).toBe(204);
  });

  it('an answer names the allowed origin and the headers a page may read only to a request from an origin', async () => {
    const from = await t.api('GET', '/custom_vars', { token, headers: { origin } });
    expect(from.statusCode).toBe(200);
    expect(from.headers['access-control-allow-origin']).toBe(origin);
    expect(String(from.headers['access-control-expose-headers']).split(', ')).toEqual([
      'WWW-Authenticate',
      'Server-Authorization',
      'x-bathylog-token',
      'x-bathylog-session-end',
    ]);
    expect(from.headers.vary).toBe('Origin');
    const refused = await t.api('GET', '/custom_vars', { headers: { origin } });
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['access-control-allow-origin']).toBe(origin);
    const plain = await t.api('GET', '/custom_vars', { token });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers.vary).toBe('Origin');
    expect(plain.headers['access-control-allow-origin']).toBeUndefined();
    expect(plain.headers['access-control-expose-headers']).toBeUndefined();
  });
});
