import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, engines, type TestApp } from '../../test/test-app.js';
import { crossSiteMessages } from './cross-site.js';

const host = '127.0.0.1:8000';
const ownOrigin = `http://${host}`;
const clientOrigin = 'http://vehicle-client.ship.local:8080';

const forbidden = (message: string) => ({ statusCode: 403, error: 'Forbidden', message });

/**
 * Writes authenticated by the session cookie come only from the server's own pages and the
 * configured client origins, with a body no plain HTML form can send. A page of another site,
 * even on another port of the same host (whose requests carry the Lax cookie), cannot act with
 * an admin's session. Bearer callers are not affected.
 */
describe.each(engines)('cross-site writes with the session cookie on %s', (engine) => {
  let t: TestApp;
  let admin: string;
  let counter = 0;

  beforeAll(async () => {
    t = await createTestApp(engine, { allowedOrigins: [clientOrigin] });
    admin = await t.login('admin', 'demo');
  });
  afterAll(() => t?.close());

  const newUser = () => {
    counter++;
    const username = `xsite${counter}`;
    return {
      username,
      fullname: username,
      email: `${username}@example.org`,
      password: 'pw-xsite-1',
      roles: ['admin'],
    };
  };
  const userExists = async (username: string) => {
    const res = await t.api('GET', '/users', { token: admin });
    return (res.json() as Array<{ username: string }>).some((u) => u.username === username);
  };
  const createUser = (body: unknown, headers: Record<string, string>) =>
    t.app.inject({
      method: 'POST',
      url: '/sealog-server/api/v1/users',
      headers: { host, ...headers },
      payload: typeof body === 'string' ? body : JSON.stringify(body),
    });
  // Repeated keys make a list: what a plain HTML form with two `roles` fields posts.
  const form = ({ roles, ...user }: ReturnType<typeof newUser>) => {
    const params = new URLSearchParams(user);
    for (const role of [...roles, 'event_watcher']) params.append('roles', role);
    return params.toString();
  };

  it('a form posted by a page on another port of the same host is refused; no user is created', async () => {
    const user = newUser();
    const res = await createUser(form(user), {
      cookie: `token=${admin}; id=x`,
      origin: 'http://127.0.0.1:9999',
      'sec-fetch-site': 'same-site',
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual(forbidden(crossSiteMessages.origin));
    expect(await userExists(user.username)).toBe(false);
  });

  it('JSON with the cookie from another site, or from another port of the same host, is refused', async () => {
    for (const origin of ['http://evil.example', 'http://127.0.0.1:9999', 'null']) {
      const user = newUser();
      const res = await createUser(user, {
        cookie: `token=${admin}`,
        origin,
        'content-type': 'application/json',
      });
      expect(res.statusCode, origin).toBe(403);
      expect(res.json()).toEqual(forbidden(crossSiteMessages.origin));
      expect(await userExists(user.username)).toBe(false);
    }
  });

  it('without an Origin, a browser write with the cookie must be same-origin by Sec-Fetch-Site', async () => {
    const refused = newUser();
    const res = await createUser(refused, {
      cookie: `token=${admin}`,
      'sec-fetch-site': 'same-site',
      'content-type': 'application/json',
    });
    expect(res.statusCode).toBe(403);
    expect(await userExists(refused.username)).toBe(false);

    const sameOrigin = newUser();
    const ok = await createUser(sameOrigin, {
      cookie: `token=${admin}`,
      'sec-fetch-site': 'same-origin',
      'content-type': 'application/json',
    });
    expect(ok.statusCode).toBe(201);
  });

  it("the server's own pages and the configured client origins write with the cookie", async () => {
    for (const origin of [ownOrigin, clientOrigin]) {
      const res = await createUser(newUser(), {
        cookie: `token=${admin}`,
        origin,
        'sec-fetch-site': 'same-origin',
        'content-type': 'application/json',
      });
      expect(res.statusCode, origin).toBe(201);
    }
    const patch = await t.app.inject({
      method: 'PATCH',
      url: '/sealog-server/api/v1/auth/profile',
      headers: { host, cookie: `token=${admin}`, origin: ownOrigin, 'content-type': 'application/json' },
      payload: JSON.stringify({ fullname: 'Admin' }),
    });
    expect(patch.statusCode).toBe(204);
  });

  it('form and text/plain POSTs with the cookie are refused even from the own origin', async () => {
    const user = newUser();
    for (const type of ['application/x-www-form-urlencoded', 'text/plain;charset=UTF-8']) {
      const res = await createUser(type.startsWith('text') ? JSON.stringify(user) : form(user), {
        cookie: `token=${admin}`,
        origin: ownOrigin,
        'content-type': type,
      });
      expect(res.statusCode, type).toBe(403);
      expect(res.json()).toEqual(forbidden(crossSiteMessages.contentType));
    }
    expect(await userExists(user.username)).toBe(false);
    // No form can send a DELETE: the client's FilePond revert (text/plain) goes with the cookie.
    const revert = await t.app.inject({
      method: 'DELETE',
      url: '/sealog-server/files/images/filepond/revert',
      headers: { host, cookie: `token=${admin}`, origin: ownOrigin, 'content-type': 'text/plain' },
      payload: 'no-such-upload.png',
    });
    expect(revert.statusCode).not.toBe(403);
  });

  it('Bearer writes work from every origin and in every body type, the cookie beside them or not', async () => {
    const json = await createUser(newUser(), {
      authorization: `Bearer ${admin}`,
      origin: 'http://evil.example',
      'content-type': 'application/json',
    });
    expect(json.statusCode).toBe(201);
    const user = newUser();
    const formPost = await createUser(form(user), {
      authorization: admin,
      cookie: `token=${admin}`,
      origin: 'http://127.0.0.1:9999',
      'sec-fetch-site': 'same-site',
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(formPost.statusCode, formPost.body).toBe(201);
    expect(await userExists(user.username)).toBe(true);
  });

  it('the GET that starts an external export is checked as a write', async () => {
    const start = (headers: Record<string, string>) =>
      t.app.inject({
        method: 'GET',
        url: '/sealog-server/api/v1/external_calls/export_cruise/5981f167212b348aed7fa9f5',
        headers: { host, cookie: `token=${admin}`, ...headers },
      });
    const foreign: Array<Record<string, string>> = [
      { 'sec-fetch-site': 'same-site' },
      { origin: 'http://127.0.0.1:9999' },
    ];
    for (const headers of foreign) {
      const res = await start(headers);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual(forbidden(crossSiteMessages.origin));
    }
    // The client's own fetch (same origin): past the check, to the route itself.
    expect((await start({ 'sec-fetch-site': 'same-origin' })).statusCode).not.toBe(403);
  });

  it('reads with the cookie from anywhere are not refused (they change nothing)', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/sealog-server/api/v1/auth/profile',
      headers: { host, cookie: `token=${admin}`, origin: 'http://evil.example' },
    });
    expect(res.statusCode).toBe(200);
  });
});
