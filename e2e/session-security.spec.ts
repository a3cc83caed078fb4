import http from 'node:http';
import type { BrowserContext, Page } from '@playwright/test';
import { decodeJwt, SignJWT } from 'jose';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { apiPrefix, dataDir, serverUrl, uniqueName, type ApiClient } from './support/api';
import { findFreePort } from './support/server';
import { loginViaUi } from './support/session';
import { test, expect } from './support/fixtures';

/** What page script can see of the session: cookies, both storages. */
async function visibleToScript(page: Page): Promise<string> {
  return page.evaluate(() => JSON.stringify([document.cookie, { ...localStorage }, { ...sessionStorage }]));
}

async function sessionCookie(context: BrowserContext) {
  return (await context.cookies()).find((c) => c.name === 'token');
}

/** The same session as `token`, issued two hours ago: due for renewal at its next request. */
async function agedSessionOf(token: string): Promise<string> {
  const secret = (await readFile(path.join(dataDir(), 'secret'), 'utf8')).trim();
  const { id, scope, roles } = decodeJwt(token);
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ id, scope, roles })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(now - 7200)
    .setExpirationTime(now + 3600)
    .sign(new TextEncoder().encode(secret));
}

test.describe('the browser session is out of reach of page script', () => {
  test.use({ storageState: { cookies: [], origins: [] } });

  test('after login no script can read the token; the session survives a reload, is renewed, and logout ends it', async ({
    page,
    context,
  }) => {
    const login = page.waitForResponse((r) => r.url().endsWith('/auth/login'));
    await loginViaUi(page, 'admin', 'demo');
    const { token } = (await (await login).json()) as { token: string };

    const cookie = await sessionCookie(context);
    expect(cookie).toMatchObject({ value: token, httpOnly: true, sameSite: 'Lax', path: '/' });
    const seen = await visibleToScript(page);
    expect(seen).not.toContain(token);
    expect(seen).not.toMatch(/(^|[";\s])token=/);
    // The readable marker of a session is the user id, nothing secret.
    expect(await page.evaluate(() => document.cookie)).toMatch(/(^|;\s*)id=[0-9a-f]{24}/);
    // The client's own calls carry no token header: the cookie goes along.
    const call = page.waitForRequest((r) => r.url().includes(`${apiPrefix}/auth/validate`));
    await page.goto('/profile');
    expect((await (await call).allHeaders()).authorization).toBeUndefined();

    await page.reload();
    await expect(page.getByTestId('user-menu-title')).toHaveText(/Admin/);
    expect(await visibleToScript(page)).not.toContain(token);

    // A session due for renewal is renewed in its HttpOnly cookie; no answer shows page script the new token.
    const aged = await agedSessionOf(token);
    await context.addCookies([{ name: 'token', value: aged, url: serverUrl(), httpOnly: true, sameSite: 'Lax' }]);
    const renewed = page.waitForResponse(
      async (r) => r.url().includes(apiPrefix) && ((await r.headerValue('set-cookie')) ?? '').includes('token='),
    );
    await page.reload();
    const answer = await renewed;
    expect(await answer.headerValue('x-bathylog-token')).toBeNull();
    await expect(page.getByTestId('user-menu-title')).toHaveText(/Admin/);
    const fresh = await sessionCookie(context);
    expect(fresh?.httpOnly).toBe(true);
    expect(fresh?.value).not.toBe(aged);
    expect(decodeJwt(fresh!.value).iat).toBeGreaterThan(decodeJwt(aged).iat!);
    expect(await visibleToScript(page)).not.toContain(fresh!.value);

    await page.goto('/logout');
    await expect(page).toHaveURL(/\/login$/);
    await expect.poll(async () => (await sessionCookie(context))?.value ?? null).toBeNull();
    expect((await context.cookies()).find((c) => c.name === 'id')).toBeUndefined();
    await page.goto('/profile');
    await expect(page).toHaveURL(/\/login$/);
  });
});

/**
 * A page of another site on another port of the same host: the browser sends the admin's Lax
 * session cookie with its requests (cookies do not tell ports apart). It tries to create an
 * admin user with the admin's session, by a plain form and by fetch; with a Bearer token it
 * may use the API as any script does.
 */
test.describe('cross-site writes with the session cookie', () => {
  let server: http.Server;
  let origin: string;

  test.beforeAll(async () => {
    const port = await findFreePort();
    origin = `http://127.0.0.1:${port}`;
    server = http.createServer((req, res) => {
      const url = new URL(req.url ?? '/', origin);
      if (url.pathname !== '/attack.html') {
        res.writeHead(404).end();
        return;
      }
      const username = (url.searchParams.get('username') ?? '').replace(/[^a-z0-9]/g, '');
      const fields = { username, fullname: username, email: `${username}@example.org`, password: 'password1' };
      const inputs = Object.entries(fields)
        .map(([k, v]) => `<input name="${k}" value="${v}">`)
        .join('');
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        `<!doctype html><html><head><title>attack</title><link rel="icon" href="data:,"></head><body>` +
          `<form id="f" method="POST" action="${serverUrl()}${apiPrefix}/users" target="sink">${inputs}` +
          `<input name="roles" value="admin"><input name="roles" value="event_watcher"></form>` +
          `<iframe name="sink"></iframe><script>document.getElementById('f').submit()</script></body></html>`,
      );
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  });
  test.afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const exists = async (adminApi: ApiClient, username: string) =>
    (await adminApi.get<Array<{ username: string }>>('users')).some((u) => u.username === username);

  test("a form and fetches with the admin's cookie are refused; a Bearer fetch from that page works", async ({
    page,
    context,
    adminApi,
    consoleErrors,
  }) => {
    // The refused and CORS-blocked calls below are reported on the console; they are the point.
    consoleErrors.allow(/CORS|Failed to fetch|ERR_FAILED|status of 403/);
    // The admin's browser session: the setup project's login through the login screen.
    expect((await sessionCookie(context))?.httpOnly).toBe(true);

    const byForm = uniqueName('xform');
    const formPost = page.waitForResponse(
      (r) => r.url().endsWith(`${apiPrefix}/users`) && r.request().method() === 'POST',
    );
    await page.goto(`${origin}/attack.html?username=${byForm}`);
    const refused = await formPost;
    expect((await refused.request().allHeaders()).cookie).toContain('token=');
    expect(refused.status()).toBe(403);
    expect(await refused.json()).toMatchObject({ statusCode: 403, error: 'Forbidden' });

    const byFetch = uniqueName('xfetch');
    const bySimpleFetch = uniqueName('xtext');
    const byBearer = uniqueName('xbearer');
    const results = await page.evaluate(
      async ({ target, names, token }) => {
        const user = (username: string) => ({
          username,
          fullname: username,
          email: `${username}@example.org`,
          password: 'password1',
          roles: ['admin'],
        });
        const outcome = (p: Promise<Response>) =>
          p.then(
            (r) => (r.type === 'opaque' ? 'opaque' : r.status),
            () => 'blocked',
          );
        return {
          json: await outcome(
            fetch(target, {
              method: 'POST',
              credentials: 'include',
              headers: { 'Content-Type': 'application/json' },
              body: JSON.stringify(user(names.fetch)),
            }),
          ),
          // A "simple" request goes without asking first; its answer stays hidden from the page.
          simple: await outcome(
            fetch(target, {
              method: 'POST',
              mode: 'no-cors',
              credentials: 'include',
              headers: { 'Content-Type': 'text/plain' },
              body: JSON.stringify(user(names.simple)),
            }),
          ),
          bearer: await outcome(
            fetch(target, {
              method: 'POST',
              headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
              body: JSON.stringify({ ...user(names.bearer), roles: ['event_watcher'] }),
            }),
          ),
        };
      },
      {
        target: `${serverUrl()}${apiPrefix}/users`,
        names: { fetch: byFetch, simple: bySimpleFetch, bearer: byBearer },
        token: adminApi.token,
      },
    );
    expect(results.json).not.toBe(201);
    expect(results.simple).toBe('opaque');
    expect(results.bearer).toBe(201);

    expect(await exists(adminApi, byForm)).toBe(false);
    expect(await exists(adminApi, byFetch)).toBe(false);
    expect(await exists(adminApi, bySimpleFetch)).toBe(false);
    expect(await exists(adminApi, byBearer)).toBe(true);
  });
});
