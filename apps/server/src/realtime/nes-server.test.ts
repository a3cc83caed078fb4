import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import Nes from '@hapi/nes';
import { wsChannels, wsPath } from '@bathylog/shared';
import { createTestApp, engines, type TestApp } from '../../test/test-app.js';
import { createRoleUsers, type RoleUsers } from '../../test/role-tokens.js';
import { signToken } from '../lib/jwt.js';
import { systemIds } from '../seed/system.js';
import { listenInRange, RawClient, scriptHello, type Frame } from './testing/ws-test-client.js';

const customVarsPath = wsPath('updateCustomVars');
const newEventsPath = wsPath('newEvents');
const asnapId = systemIds.asnapStatus;

describe.each(engines)('nes websocket protocol on %s', (engine) => {
  let t: TestApp;
  let port: number;
  let users: RoleUsers;
  let admin: string;
  const open: RawClient[] = [];

  const connect = async (opts: Parameters<typeof RawClient.open>[1] = {}) => {
    const c = await RawClient.open(port, opts);
    open.push(c);
    return c;
  };
  const helloed = async (token: string, subs: string[], opts: Parameters<typeof RawClient.open>[1] = {}) => {
    const c = await connect(opts);
    const reply = await c.call(scriptHello(token, subs));
    expect(reply.type).toBe('hello');
    return c;
  };
  const setAsnap = async (value: string, token = admin) => {
    const res = await t.api('PATCH', `/custom_vars/${asnapId}`, { token, body: { custom_var_value: value } });
    expect(res.statusCode).toBe(204);
  };

  beforeAll(async () => {
    t = await createTestApp(engine, {
      // Fan-outs of two frames at a time: every delivery to several sockets crosses slices.
      realtime: {
        heartbeatIntervalMs: 300,
        heartbeatTimeoutMs: 200,
        helloTimeoutMs: 1000,
        authRecheckMs: 0,
        fanOutSlice: 2,
      },
    });
    port = await listenInRange(t.app);
    users = await createRoleUsers(t);
    admin = users.tokens.admin!;
  });
  afterEach(async () => {
    for (const c of open.splice(0)) c.close();
    await t.ctx.database.db
      .updateTable('custom_vars')
      .set({ custom_var_value: 'Off' })
      .where('id', '=', asnapId)
      .execute();
  });
  afterAll(() => t?.close());

  it('answers the hello a Python script sends and pushes a PATCHed custom var as Sealog does', async () => {
    const c = await connect();
    const reply = await c.call(scriptHello(admin, [newEventsPath, customVarsPath]));
    expect(reply).toEqual({
      type: 'hello',
      id: 'websocketTest',
      heartbeat: { interval: 300, timeout: 200 },
      socket: expect.stringMatching(/^\d+:.+:\d+$/),
    });
    const pub = c.next((f) => f.type === 'pub', 5000, c.frames.length);
    await setAsnap('On');
    expect(await pub).toEqual({
      type: 'pub',
      path: '/ws/status/updateCustomVars',
      message: { id: '59810167212b348aed7fa9f5', custom_var_name: 'asnapStatus', custom_var_value: 'On' },
    });
  });

  it('keeps a socket that answers pings and closes one that stays silent', async () => {
    const talker = await helloed(admin, [customVarsPath]);
    const silent = await helloed(admin, [customVarsPath], { answerPings: false });
    const closed = await silent.closed;
    expect(closed.code).toBe(1000);
    expect(silent.frames.filter((f) => f.type === 'ping')[0]).toEqual({ type: 'ping' });
    expect(talker.isOpen).toBe(true);
    // The survivor still receives.
    const pub = talker.nextPub(customVarsPath);
    await setAsnap('On');
    expect(await pub).toMatchObject({ custom_var_value: 'On' });
  });

  it('closes a socket that never says hello', async () => {
    const c = await connect();
    await c.closed;
    expect(c.frames.filter((f) => f.type !== 'ping')).toEqual([]);
  });

  it('refuses a hello without a valid token with the nes 401 error frame and closes the socket', async () => {
    const cases: Array<[Frame, string]> = [
      [{ type: 'hello', id: 1, version: '2', subs: [customVarsPath] }, 'Missing authentication'],
      [
        { type: 'hello', id: 2, version: '2', auth: { headers: { Authorization: 'Bearer abc.def.ghi' } } },
        'Invalid token format',
      ],
      [
        {
          type: 'hello',
          id: 3,
          version: '2',
          auth: {
            headers: {
              Authorization: `Bearer ${await signToken({ id: systemIds.admin, scope: ['admin'], roles: ['admin'] }, 'other-secret')}`,
            },
          },
        },
        'Invalid token',
      ],
      [scriptHello(users.tokens.disabled!, [customVarsPath], 4), 'Invalid credentials'],
    ];
    for (const [hello, message] of cases) {
      const c = await connect();
      const reply = await c.call(hello);
      expect(reply).toEqual({
        statusCode: 401,
        payload: { error: 'Unauthorized', message },
        type: 'hello',
        id: hello.id,
      });
      const closed = await c.closed;
      expect(closed.code).toBe(1008);
    }
  });

  it('answers malformed and out-of-order frames with nes error frames', async () => {
    const c = await connect();
    const err = (statusCode: number, error: string, message: string, extra: Frame = {}) => ({
      statusCode,
      payload: { error, message },
      ...extra,
    });
    c.send('this is not json');
    expect(await c.next((f) => f.statusCode === 400)).toEqual(err(400, 'Bad Request', 'Cannot parse message'));
    let seen = c.frames.length;
    c.send({ type: 'hello', version: '2' });
    expect(await c.next((f) => f.statusCode !== undefined, 5000, seen)).toEqual(
      err(400, 'Bad Request', 'Message missing id', { type: 'hello' }),
    );
    seen = c.frames.length;
    c.send({ id: 5 });
    expect(await c.next((f) => f.statusCode !== undefined, 5000, seen)).toEqual(
      err(400, 'Bad Request', 'Cannot parse message', { id: 5 }),
    );
    expect(await c.call({ type: 'sub', id: 'early', path: newEventsPath })).toEqual(
      err(400, 'Bad Request', 'Connection is not initialized', { type: 'sub', id: 'early' }),
    );
    expect(await c.call({ ...scriptHello(admin, []), id: 'v1', version: '1' })).toEqual(
      err(400, 'Bad Request', 'Incorrect protocol version (expected 2 but received 1)', { type: 'hello', id: 'v1' }),
    );
    expect((await c.call(scriptHello(admin, [], 'ok'))).type).toBe('hello');
    expect(await c.call(scriptHello(admin, [], 'again'))).toEqual(
      err(400, 'Bad Request', 'Connection already initialized', { type: 'hello', id: 'again' }),
    );
    expect(await c.call({ type: 'bogus', id: 6 })).toEqual(
      err(400, 'Bad Request', 'Unknown message type', { type: 'bogus', id: 6 }),
    );
    expect(await c.call({ type: 'message', id: 7, message: 'hi' })).toEqual(
      err(501, 'Not Implemented', 'Not Implemented', { type: 'message', id: 7 }),
    );
    expect(await c.call({ type: 'sub', id: 8, path: `${newEventsPath}?since=now` })).toEqual(
      err(400, 'Bad Request', 'Subscription path cannot contain query', { type: 'sub', id: 8 }),
    );
    expect(await c.call({ type: 'sub', id: 9, path: '/ws/status/deleteCruises' })).toEqual(
      err(404, 'Not Found', 'Subscription not found', { type: 'sub', id: 9 }),
    );
    expect(await c.call({ type: 'sub', id: 10, path: newEventsPath })).toEqual({
      type: 'sub',
      id: 10,
      path: newEventsPath,
    });
    expect(await c.call({ type: 'sub', id: 11, path: newEventsPath })).toEqual({
      type: 'sub',
      id: 11,
      path: newEventsPath,
    });
    expect(await c.call({ type: 'unsub', id: 12, path: newEventsPath })).toEqual({ type: 'unsub', id: 12 });
    expect(await c.call({ type: 'unsub', id: 13, path: wsPath('updateEvents') })).toEqual({ type: 'unsub', id: 13 });
    // A client ping gets no answer; the next request's reply is the next frame.
    c.send({ type: 'ping', id: 14 });
    const before = c.frames.filter((f) => f.type !== 'ping').length;
    await c.call({ type: 'sub', id: 15, path: newEventsPath });
    const after = c.frames.filter((f) => f.type !== 'ping');
    expect(after.slice(before)).toEqual([{ type: 'sub', id: 15, path: newEventsPath }]);
    expect(c.isOpen).toBe(true);
  });

  it('fails a hello at its first unknown subscription, keeping the ones before it', async () => {
    const c = await connect();
    const updateEventsPath = wsPath('updateEvents');
    const reply = await c.call(scriptHello(admin, [newEventsPath, '/ws/status/nope', updateEventsPath], 1));
    expect(reply).toEqual({
      statusCode: 404,
      payload: { error: 'Not Found', message: 'Subscription not found' },
      type: 'hello',
      id: 1,
      path: '/ws/status/nope',
    });
    // The connection counts as initialised: newEvents is subscribed, updateEvents is not.
    const event = {
      id: '6b02c84cfc29901d2400d502',
      ts: new Date().toISOString(),
      event_author: 'admin',
      event_value: 'FISH',
      event_options: [],
      event_free_text: '',
    };
    const pub = c.nextPub(newEventsPath);
    t.ctx.bus.publish('updateEvents', event);
    t.ctx.bus.publish('newEvents', event);
    expect(await pub).toEqual(event);
    expect(c.pubs(updateEventsPath)).toEqual([]);
    expect(await c.call({ type: 'sub', id: 2, path: updateEventsPath })).toEqual({
      type: 'sub',
      id: 2,
      path: updateEventsPath,
    });
  });

  it('delivers every publication to every socket in publish order while fan-outs run in slices', async () => {
    // Five sockets take three slices of a fan-out (fanOutSlice 2), publications made while one runs
    // are delivered together in the next, and each waits for its own lookup of who may see it.
    const updateEventsPath = wsPath('updateEvents');
    const tokens = [admin, users.tokens.event_watcher!, admin, users.tokens.event_logger!, admin];
    const sockets = await Promise.all(tokens.map((token) => helloed(token, [newEventsPath, updateEventsPath])));
    const sent: Array<{ path: string; text: string }> = [];
    for (let i = 0; i < 30; i++) {
      const channel = i % 3 === 0 ? 'updateEvents' : 'newEvents';
      const text = `order ${i}`;
      sent.push({ path: wsPath(channel), text });
      t.ctx.bus.publish(channel, {
        id: '6b02c84cfc29901d2400d503',
        ts: new Date().toISOString(),
        event_author: 'admin',
        event_value: 'ORDER',
        event_options: [],
        event_free_text: text,
      });
      if (i % 10 === 4) await new Promise((resolve) => setImmediate(resolve));
    }
    for (const c of sockets) {
      await c.next(() => c.frames.filter((f) => f.type === 'pub').length === sent.length, 10_000);
      const received = c.frames
        .filter((f) => f.type === 'pub')
        .map((f) => ({ path: f.path, text: (f.message as { event_free_text: string }).event_free_text }));
      expect(received).toEqual(sent);
    }
  });

  it('accepts every channel path in one hello, as sealog_repeater and cruise sync subscribe', async () => {
    const c = await connect();
    const reply = await c.call(
      scriptHello(
        admin,
        wsChannels.map((ch) => wsPath(ch)),
      ),
    );
    expect(reply.type).toBe('hello');
    expect(reply.statusCode).toBeUndefined();
  });

  it('accepts the upgrade on any path outside /sealog-server', async () => {
    const c = await connect({ path: '/anything/here' });
    expect((await c.call(scriptHello(admin, [customVarsPath]))).type).toBe('hello');
    await expect(RawClient.open(port, { path: '/sealog-server/api/v1/events' })).rejects.toThrow(/404/);
  });

  it('lets subscriptions follow the roles: templates need read_event_templates, custom vars any user', async () => {
    const watcher = await connect();
    const denied = await watcher.call(
      scriptHello(users.tokens.event_watcher!, [customVarsPath, wsPath('newEventTemplates')], 'w'),
    );
    expect(denied).toEqual({
      statusCode: 403,
      payload: { error: 'Forbidden', message: 'Insufficient scope' },
      type: 'hello',
      id: 'w',
      path: '/ws/status/newEventTemplates',
    });
    for (const ch of ['newEvents', 'updateEventAuxData', 'newCruises', 'updateLowerings'] as const) {
      expect(await watcher.call({ type: 'sub', id: ch, path: wsPath(ch) })).toEqual({
        type: 'sub',
        id: ch,
        path: wsPath(ch),
      });
    }
    for (const role of ['event_logger', 'template_manager', 'cruise_manager', 'guest'] as const) {
      const c = await connect();
      const reply = await c.call(
        scriptHello(
          users.tokens[role]!,
          wsChannels.map((ch) => wsPath(ch)),
          role,
        ),
      );
      expect(reply.type).toBe('hello');
    }
  });

  it('runs nes requests through the REST routes with the socket user and refuses an Authorization header', async () => {
    const c = await helloed(users.tokens.event_watcher!, []);
    expect(
      await c.call({
        type: 'request',
        id: 1,
        method: 'GET',
        path: '/sealog-server/api/v1/custom_vars?name=asnapStatus',
      }),
    ).toEqual({
      type: 'request',
      id: 1,
      statusCode: 200,
      payload: [{ id: asnapId, custom_var_name: 'asnapStatus', custom_var_value: 'Off' }],
    });
    // event_watcher cannot write events, so it cannot toggle ASNAP: the route's 403 comes back as the reply.
    expect(
      await c.call({
        type: 'request',
        id: 2,
        method: 'PATCH',
        path: `/sealog-server/api/v1/custom_vars/${asnapId}`,
        payload: { custom_var_value: 'On' },
      }),
    ).toEqual({
      type: 'request',
      id: 2,
      statusCode: 403,
      payload: { statusCode: 403, error: 'Forbidden', message: 'Insufficient scope' },
    });
    expect(
      await c.call({
        type: 'request',
        id: 3,
        path: '/sealog-server/api/v1/custom_vars',
        headers: { Authorization: `Bearer ${admin}` },
      }),
    ).toEqual({
      statusCode: 400,
      payload: { error: 'Bad Request', message: 'Cannot include an Authorization header' },
      type: 'request',
      id: 3,
    });
    expect(await c.call({ type: 'request', id: 4, path: 'no_such_route' })).toEqual({
      statusCode: 404,
      payload: { error: 'Not Found', message: 'Not Found' },
      type: 'request',
      id: 4,
    });
    const logger = await helloed(users.tokens.event_logger!, []);
    expect(
      await logger.call({
        type: 'request',
        id: 5,
        method: 'PATCH',
        path: `/sealog-server/api/v1/custom_vars/${asnapId}`,
        payload: { custom_var_value: 'On' },
      }),
    ).toEqual({ type: 'request', id: 5, statusCode: 204, payload: null });
    const stored = await t.api('GET', `/custom_vars/${asnapId}`, { token: admin });
    expect(stored.json()).toMatchObject({ custom_var_value: 'On' });
  });

  it('stops delivering to a user who is disabled, or whose roles change, after connecting', async () => {
    const make = async (username: string) => {
      const res = await t.api('POST', '/users', {
        token: admin,
        body: {
          username,
          fullname: username,
          email: `${username}@example.org`,
          password: 'secret-pw',
          roles: ['event_logger'],
        },
      });
      expect(res.statusCode).toBe(201);
      return { id: (res.json() as { insertedId: string }).insertedId, token: await t.login(username, 'secret-pw') };
    };
    const victim = await make('ws_disabled');
    const demoted = await make('ws_demoted');
    const bystander = await helloed(admin, [customVarsPath]);
    const a = await helloed(victim.token, [customVarsPath]);
    const b = await helloed(demoted.token, [customVarsPath]);
    expect((await t.api('PATCH', `/users/${victim.id}`, { token: admin, body: { disabled: true } })).statusCode).toBe(
      204,
    );
    expect(
      (await t.api('PATCH', `/users/${demoted.id}`, { token: admin, body: { roles: ['event_watcher'] } })).statusCode,
    ).toBe(204);
    const seen = bystander.nextPub(customVarsPath);
    await setAsnap('On');
    await seen;
    expect((await a.closed).code).toBe(1008);
    expect((await b.closed).code).toBe(1008);
    expect(a.pubs(customVarsPath)).toEqual([]);
    expect(b.pubs(customVarsPath)).toEqual([]);
  });

  it('delivers events of every frame size to the unmodified @hapi/nes client and to a raw socket', async () => {
    // The pub frame is framed once for every socket (docs/realtime.md#fleet-scale): a free text
    // around each websocket length boundary (125 bytes, 64 KiB) and beyond ASCII must arrive whole.
    const texts = ['short', 'x'.repeat(90), 'é'.repeat(70), 'y'.repeat(65_500), 'z'.repeat(70_000) + ' ⚓'];
    const client = new Nes.Client(`ws://127.0.0.1:${port}/ws`);
    await client.connect({ auth: { headers: { Authorization: `Bearer ${admin}` } }, reconnect: false });
    const raw = await helloed(admin, [newEventsPath]);
    try {
      const received: string[] = [];
      let allReceived: () => void = () => undefined;
      const done = new Promise<void>((resolve) => (allReceived = resolve));
      await client.subscribe(newEventsPath, (message: unknown) => {
        received.push((message as { event_free_text: string }).event_free_text);
        if (received.length === texts.length) allReceived();
      });
      const last = raw.next((f) => f.type === 'pub' && texts.length === raw.pubs(newEventsPath).length, 10_000);
      for (const text of texts) {
        const res = await t.api('POST', '/events', {
          token: admin,
          body: { event_value: 'FRAME_SIZE', event_free_text: text },
        });
        expect(res.statusCode).toBe(201);
      }
      await done;
      await last;
      expect(received).toEqual(texts);
      expect(raw.pubs(newEventsPath).map((m) => (m as { event_free_text: string }).event_free_text)).toEqual(texts);
    } finally {
      await client.disconnect();
    }
  });

  it('works with the unmodified @hapi/nes client', async () => {
    const client = new Nes.Client(`ws://127.0.0.1:${port}/ws`);
    await client.connect({ auth: { headers: { Authorization: `Bearer ${admin}` } }, reconnect: false });
    try {
      let deliver: (message: unknown) => void = () => undefined;
      const received = new Promise<unknown>((resolve) => (deliver = resolve));
      // subscribe() resolves once the server acknowledged the sub.
      await client.subscribe(customVarsPath, (message: unknown) => deliver(message));
      await setAsnap('On');
      expect(await received).toEqual({ id: asnapId, custom_var_name: 'asnapStatus', custom_var_value: 'On' });
      const res = await client.request('/sealog-server/api/v1/custom_vars?name=asnapStatus');
      expect(res.statusCode).toBe(200);
      expect(res.payload).toEqual([{ id: asnapId, custom_var_name: 'asnapStatus', custom_var_value: 'On' }]);
    } finally {
      await client.disconnect();
    }
    const refused = new Nes.Client(`ws://127.0.0.1:${port}/ws`);
    const failure = await refused
      .connect({ auth: { headers: { Authorization: 'Bearer not-a-token' } }, reconnect: false })
      .then(
        () => null,
        (err: { statusCode?: number; message: string }) => err,
      );
    expect(failure).toMatchObject({ statusCode: 401, message: 'Missing authentication' });
    await refused.disconnect();
  });
});
