import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, engines, type TestApp } from '../../../test/test-app.js';

const hour = 60 * 60 * 1000;

function setCookies(res: { headers: Record<string, unknown> }): string[] {
  const value = res.headers['set-cookie'];
  return value === undefined ? [] : Array.isArray(value) ? (value as string[]) : [String(value)];
}

function cookieNamed(res: { headers: Record<string, unknown> }, name: string): string | undefined {
  return setCookies(res).find((c) => c.startsWith(`${name}=`));
}

function valueOf(cookie: string | undefined): string {
  return decodeURIComponent(cookie!.split(';')[0]!.split('=').slice(1).join('='));
}

/**
 * The browser session lives in an HttpOnly cookie the server sets at login and renews itself, so
 * page script never sees the token; scripts keep reading it from the login body and sending it in
 * the Authorization header.
 */
describe.each(engines)('the browser session cookie on %s', (engine) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(engine);
  });
  afterEach(() => vi.useRealTimers());
  afterAll(() => t?.close());

  const login = (headers: Record<string, string> = {}) =>
    t.api('POST', '/auth/login', { body: { username: 'admin', password: 'demo' }, headers });

  it('login answers the token in the body as Sealog does and sets it in an HttpOnly cookie', async () => {
    const res = await login();
    expect(res.statusCode).toBe(200);
    const body = res.json() as { token: string; id: string };
    const token = cookieNamed(res, 'token');
    expect(token).toMatch(/; Path=\/; SameSite=Lax; HttpOnly$/);
    expect(token).not.toMatch(/Secure|Max-Age/);
    expect(valueOf(token)).toBe(body.token);
    // The id stays readable: the client knows a session exists without seeing its token.
    const id = cookieNamed(res, 'id');
    expect(id).toBe(`id=${body.id}; Path=/; SameSite=Lax`);
  });

  it('the cookie alone authenticates, and a login by loginToken sets it too', async () => {
    const res = await login();
    const cookie = `token=${encodeURIComponent(valueOf(cookieNamed(res, 'token')))}`;
    const profile = await t.api('GET', '/auth/profile', { headers: { cookie } });
    expect(profile.statusCode).toBe(200);
    expect(profile.json()).toMatchObject({ username: 'admin' });

    const { id } = res.json() as { id: string };
    const { loginToken } = (await t.api('GET', `/users/${id}/loginToken`, { headers: { cookie } })).json() as {
      loginToken: string;
    };
    const byLoginToken = await t.api('POST', '/auth/login', { body: { loginToken } });
    expect(byLoginToken.statusCode).toBe(200);
    expect(valueOf(cookieNamed(byLoginToken, 'token'))).toBe((byLoginToken.json() as { token: string }).token);
  });

  it('over https the cookies are Secure; SameSite=None only when embedding by other sites is configured', async () => {
    // X-Forwarded-Proto counts only from a configured proxy (here the tests' loopback caller).
    const ignored = await login({ 'x-forwarded-proto': 'https' });
    expect(cookieNamed(ignored, 'token')).toMatch(/; SameSite=Lax; HttpOnly$/);

    const proxied = await createTestApp(engine, { trustProxy: ['loopback'] });
    const embedded = await createTestApp(engine, { trustProxy: ['loopback'], sessions: { embedded: true } });
    try {
      const https = await proxied.api('POST', '/auth/login', {
        body: { username: 'admin', password: 'demo' },
        headers: { 'x-forwarded-proto': 'https' },
      });
      expect(cookieNamed(https, 'token')).toMatch(/; Path=\/; SameSite=Lax; Secure; HttpOnly$/);
      expect(cookieNamed(https, 'id')).toMatch(/; SameSite=Lax; Secure$/);

      const res = await embedded.api('POST', '/auth/login', {
        body: { username: 'admin', password: 'demo' },
        headers: { 'x-forwarded-proto': 'https' },
      });
      expect(cookieNamed(res, 'token')).toMatch(/; SameSite=None; Secure; HttpOnly$/);
      // Over plain http a browser refuses SameSite=None without Secure: Lax stays.
      const plain = await embedded.api('POST', '/auth/login', { body: { username: 'admin', password: 'demo' } });
      expect(cookieNamed(plain, 'token')).toMatch(/; SameSite=Lax; HttpOnly$/);
    } finally {
      await proxied.close();
      await embedded.close();
    }
  });

  it('a cookie session is renewed in the cookie, never in a header that page script could read', async () => {
    vi.useFakeTimers({ now: Date.now(), toFake: ['Date'] });
    const res = await login();
    const first = valueOf(cookieNamed(res, 'token'));
    vi.setSystemTime(Date.now() + hour + 1000);
    const later = await t.api('GET', '/auth/profile', { headers: { cookie: `token=${first}; id=x` } });
    expect(later.statusCode).toBe(200);
    expect(later.headers['x-bathylog-token']).toBeUndefined();
    const renewed = cookieNamed(later, 'token');
    expect(renewed).toMatch(/; Path=\/; SameSite=Lax; HttpOnly$/);
    expect(valueOf(renewed)).not.toBe(first);
    expect(cookieNamed(later, 'id')).toBeUndefined();
    expect(
      (await t.api('GET', '/auth/validate', { headers: { cookie: `token=${valueOf(renewed)}` } })).statusCode,
    ).toBe(200);

    // A Bearer caller still gets its renewal in the header, and no cookie.
    const bearer = await t.api('GET', '/auth/profile', { token: first });
    expect(bearer.headers['x-bathylog-token']).toBeTruthy();
    expect(cookieNamed(bearer, 'token')).toBeUndefined();
  });

  it('logout clears both cookies; without a session it answers the same', async () => {
    const res = await login();
    const cookie = `token=${encodeURIComponent(valueOf(cookieNamed(res, 'token')))}`;
    const out = await t.api('POST', '/auth/logout', { headers: { cookie, origin: 'http://localhost:80' } });
    expect(out.statusCode).toBe(204);
    expect(cookieNamed(out, 'token')).toMatch(/^token=; Path=\/; SameSite=Lax; Max-Age=0; .*HttpOnly$/);
    expect(cookieNamed(out, 'id')).toMatch(/^id=; Path=\/; SameSite=Lax; Max-Age=0; /);
    expect((await t.api('POST', '/auth/logout')).statusCode).toBe(204);
  });
});
