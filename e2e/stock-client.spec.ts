import http from 'node:http';
import { apiPrefix, serverUrl, uniqueName } from './support/api';
import { findFreePort } from './support/server';
import { test, expect } from './support/fixtures';

/**
 * A stock Sealog client as vessels deploy it: the client on one port, the server on another, the
 * client's calls carrying a Bearer token. The browser preflights every PATCH and DELETE; when the
 * preflight did not allow them, the operator's options and deletions were lost without an error.
 * The page here is a real page of another origin running the calls the stock client makes.
 */
test.describe('a Sealog client served from another port', () => {
  test.use({ storageState: { cookies: [], origins: [] } });
  let server: http.Server;
  let origin: string;

  test.beforeAll(async () => {
    const port = await findFreePort();
    origin = `http://127.0.0.1:${port}`;
    server = http.createServer((req, res) => {
      if (req.url !== '/client.html') {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        '<!doctype html><html lang="en"><head><title>stock client</title><link rel="icon" href="data:,"></head><body></body></html>',
      );
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  });
  test.afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  test('logs in, logs an event, saves its options, hides a cruise, deletes the event, and hears it live', async ({
    page,
    adminApi,
  }) => {
    const cruiseId = uniqueName('XO').slice(0, 20);
    const cruise = await adminApi.post<{ insertedId: string }>('cruises', {
      cruise_id: cruiseId,
      start_ts: '2023-03-01T00:00:00.000Z',
      stop_ts: '2023-03-31T00:00:00.000Z',
      cruise_location: 'Pacific',
      cruise_hidden: false,
      cruise_additional_meta: {},
      cruise_tags: [],
    });
    const value = uniqueName('XORIGIN');

    await page.goto(`${origin}/client.html`);
    // PATCH and DELETE with an Authorization header are preflighted: had the preflight not allowed
    // them, fetch would reject ("Failed to fetch") and the evaluation below would throw.
    const result = await page.evaluate(
      async ({ api, ws, value, cruise }) => {
        const call = async (method: string, path: string, token: string | null, body?: unknown) => {
          const res = await fetch(`${api}${path}`, {
            method,
            headers: {
              ...(token ? { Authorization: token } : {}),
              ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
            },
            body: body !== undefined ? JSON.stringify(body) : undefined,
          });
          const text = await res.text();
          return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : null };
        };
        const login = await call('POST', '/auth/login', null, { username: 'admin', password: 'demo' });
        const token = String(login.body?.token);
        // The stock client listens on newEvents with the token in its hello.
        const socket = new WebSocket(ws);
        const heard = new Promise<unknown>((resolve, reject) => {
          socket.onmessage = (m) => {
            const msg = JSON.parse(String(m.data)) as { type: string; path?: string; message?: unknown };
            if (msg.type === 'hello') socket.send(JSON.stringify({ type: 'sub', id: 2, path: '/ws/status/newEvents' }));
            if (msg.type === 'pub' && (msg.message as { event_value?: string }).event_value === value)
              resolve(msg.message);
          };
          socket.onerror = () => reject(new Error('websocket error'));
        });
        await new Promise((resolve) => (socket.onopen = resolve));
        socket.send(
          JSON.stringify({ type: 'hello', id: 1, version: '2', auth: { headers: { authorization: token } } }),
        );
        await new Promise((resolve) => setTimeout(resolve, 200));
        const created = await call('POST', '/events', token, { event_value: value });
        const live = await heard;
        socket.close();
        const id = String(created.body?.insertedId);
        const patched = await call('PATCH', `/events/${id}`, token, {
          event_options: [{ event_option_name: 'rock_type', event_option_value: 'basalt' }],
        });
        const stored = await call('GET', `/events/${id}`, token);
        const hidden = await call('PATCH', `/cruises/${cruise}`, token, { cruise_hidden: true });
        const deleted = await call('DELETE', `/events/${id}`, token);
        const gone = await call('GET', `/events/${id}`, token);
        return {
          login: login.status,
          created: created.status,
          live,
          patched: patched.status,
          stored: stored.body,
          hidden: hidden.status,
          deleted: deleted.status,
          gone: gone.status,
        };
      },
      {
        api: `${serverUrl()}${apiPrefix}`,
        ws: `${serverUrl().replace(/^http/, 'ws')}/ws`,
        value,
        cruise: cruise.insertedId,
      },
    );

    expect(result).toMatchObject({ login: 200, created: 201, patched: 204, hidden: 204, deleted: 204, gone: 404 });
    expect(result.live).toMatchObject({ event_value: value, event_author: 'admin' });
    expect(result.stored).toMatchObject({
      event_value: value,
      event_options: [{ event_option_name: 'rock_type', event_option_value: 'basalt' }],
    });
    expect((await adminApi.get<{ cruise_hidden: boolean }>(`cruises/${cruise.insertedId}`)).cruise_hidden).toBe(true);
  });
});
