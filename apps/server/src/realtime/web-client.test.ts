import net from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  openExecuteOutput,
  RealtimeClient,
  type RealtimeState,
  type WebSocketLike,
} from '../../../web/src/api/realtime.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { createRoleUsers, type RoleUsers } from '../../test/role-tokens.js';
import { systemIds } from '../seed/system.js';
import { listenInRange } from './testing/ws-test-client.js';

/**
 * The browser's realtime client (apps/web/src/api/realtime.ts) against the real server, with
 * the `ws` package as its WebSocket and a TCP relay in between that can cut every connection,
 * as a dropped ship-to-shore link or a restarted proxy would.
 */
class Relay {
  readonly sockets = new Set<net.Socket>();
  connections = 0;
  private server = net.createServer((client) => {
    this.connections++;
    const upstream = net.connect(this.target, '127.0.0.1');
    this.sockets.add(client).add(upstream);
    client.pipe(upstream).pipe(client);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      this.sockets.delete(client);
      this.sockets.delete(upstream);
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
  });
  port = 0;
  constructor(private readonly target: number) {}

  async listen(): Promise<void> {
    for (
      let port = 8700 + Math.floor(Math.random() * 100), tries = 0;
      tries < 100;
      tries++, port = 8700 + ((port - 8700 + 1) % 100)
    ) {
      const ok = await new Promise<boolean>((resolve) => {
        this.server.once('error', () => resolve(false));
        this.server.listen(port, '127.0.0.1', () => resolve(true));
      });
      if (ok) {
        this.port = port;
        return;
      }
    }
    throw new Error('no free port for the relay');
  }

  cutAll(): void {
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
  }

  close(): Promise<void> {
    this.cutAll();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

const nodeSocket = (url: string) => new WebSocket(url) as unknown as WebSocketLike;

function waitFor<T>(register: (resolve: (v: T) => void) => void, timeoutMs = 10_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('timed out')), timeoutMs);
    register((v) => {
      clearTimeout(timer);
      resolve(v);
    });
  });
}

const stateReached = (client: RealtimeClient, wanted: RealtimeState) =>
  client.state === wanted
    ? Promise.resolve(wanted)
    : waitFor<RealtimeState>((resolve) => client.onState((s) => s === wanted && resolve(s)));

describe('web realtime client against the server', () => {
  let t: TestApp;
  let relay: Relay;
  let users: RoleUsers;
  let admin: string;
  const clients: RealtimeClient[] = [];
  let toggle = false;

  const client = (
    getToken: () => string | null,
    extra: Partial<ConstructorParameters<typeof RealtimeClient>[0]> = {},
  ) => {
    const c = new RealtimeClient({
      url: `ws://127.0.0.1:${relay.port}/ws`,
      getToken,
      createSocket: nodeSocket,
      minDelayMs: 50,
      maxDelayMs: 400,
      onError: () => undefined,
      ...extra,
    });
    clients.push(c);
    return c;
  };
  const flipAsnap = async () => {
    toggle = !toggle;
    const value = toggle ? 'On' : 'Off';
    const res = await t.api('PATCH', `/custom_vars/${systemIds.asnapStatus}`, {
      token: admin,
      body: { custom_var_value: value },
    });
    expect(res.statusCode).toBe(204);
    return value;
  };

  beforeAll(async () => {
    t = await createTestApp('sqlite', {
      realtime: { authRecheckMs: 0 },
      // Any command that prints and exits will do; `node -e` keeps it portable.
      externalCalls: {
        exportLowering: `${JSON.stringify(process.execPath)} -e "console.log('exporting', process.argv[1])" {id}`,
        exportCruise: null,
      },
    });
    const port = await listenInRange(t.app);
    relay = new Relay(port);
    await relay.listen();
    users = await createRoleUsers(t);
    admin = users.tokens.admin!;
  });
  afterEach(() => {
    for (const c of clients.splice(0)) c.close();
  });
  afterAll(async () => {
    await relay?.close();
    await t?.close();
  });

  it('subscribes with typed handlers and receives pubs', async () => {
    const c = client(() => admin);
    const got = waitFor<unknown>((resolve) => c.subscribe('updateCustomVars', (payload) => resolve(payload)));
    c.connect();
    await stateReached(c, 'open');
    const value = await flipAsnap();
    expect(await got).toEqual({ id: systemIds.asnapStatus, custom_var_name: 'asnapStatus', custom_var_value: value });
  });

  it('reconnects after the link drops, re-subscribes and tells the app to refetch', async () => {
    const c = client(() => admin);
    const seen: unknown[] = [];
    c.subscribe('updateCustomVars', (p) => seen.push(p));
    c.connect();
    await stateReached(c, 'open');
    const reconnected = waitFor<boolean>((resolve) => c.onReconnect(() => resolve(true)));
    const before = relay.connections;
    relay.cutAll();
    expect(await reconnected).toBe(true);
    expect(c.state).toBe('open');
    expect(relay.connections).toBeGreaterThan(before);
    const next = waitFor<unknown>((resolve) => c.subscribe('updateCustomVars', resolve));
    const value = await flipAsnap();
    expect(await next).toMatchObject({ custom_var_value: value });
    expect(seen.at(-1)).toMatchObject({ custom_var_value: value });
  });

  it("a cookie session ('' for the token) says hello without auth: the upgrade's HttpOnly cookie authenticates", async () => {
    let cookie = users.tokens.disabled!;
    const browserSocket = (url: string) =>
      new WebSocket(url, {
        headers: { origin: `http://127.0.0.1:${relay.port}`, cookie: `token=${encodeURIComponent(cookie)}; id=x` },
      }) as unknown as WebSocketLike;
    const c = client(() => '', { createSocket: browserSocket });
    const got = waitFor<unknown>((resolve) => c.subscribe('updateCustomVars', resolve));
    c.connect();
    await stateReached(c, 'unauthorized');
    // A new session (another login): the client connects again, and the upgrade carries the new cookie.
    cookie = admin;
    c.reauthenticate();
    await stateReached(c, 'open');
    const value = await flipAsnap();
    expect(await got).toMatchObject({ custom_var_value: value });
  });

  it('without a session (null) it does not connect', async () => {
    const c = client(() => null);
    const before = relay.connections;
    c.connect();
    await stateReached(c, 'unauthorized');
    expect(relay.connections).toBe(before);
  });

  it('stops reconnecting when the token is refused, and connects again once a valid token is given', async () => {
    let token: string | null = users.tokens.disabled!;
    const c = client(() => token);
    c.connect();
    await stateReached(c, 'unauthorized');
    const attempts = relay.connections;
    await new Promise((r) => setTimeout(r, 600));
    expect(relay.connections).toBe(attempts);
    token = users.tokens.event_watcher!;
    c.reauthenticate();
    await stateReached(c, 'open');
  });

  it('re-authenticates an open socket as another user and picks up subscriptions the new roles allow', async () => {
    let token = users.tokens.event_watcher!;
    const errors: number[] = [];
    const c = client(() => token, { onError: (err) => errors.push(err.statusCode) });
    const templates = waitFor<unknown>((resolve) => c.subscribe('newEventTemplates', resolve));
    c.connect();
    await stateReached(c, 'open');
    // event_watcher may not read templates: the hello refused that path.
    expect(errors).toContain(403);
    token = admin;
    c.reauthenticate();
    await new Promise((r) => setTimeout(r, 200));
    const post = await t.api('POST', '/event_templates', {
      token: admin,
      body: {
        event_name: 'Crab',
        event_value: 'CRAB',
        event_free_text_required: false,
        system_template: false,
        event_options: [],
      },
    });
    expect(post.statusCode).toBe(201);
    expect(await templates).toMatchObject({ event_value: 'CRAB' });
  });

  it('sends subscriptions made while the hello is on its way once the socket is open', async () => {
    let late: Promise<unknown> | null = null;
    const c: RealtimeClient = client(() => admin, {
      createSocket: (url) => {
        const ws = nodeSocket(url);
        const send = ws.send.bind(ws);
        ws.send = (data: string) => {
          send(data);
          // A screen mounting between the hello and its answer subscribes now.
          if (!late && (JSON.parse(data) as { type: string }).type === 'hello') {
            late = waitFor<unknown>((resolve) => c.subscribe('updateCustomVars', resolve));
          }
        };
        return ws;
      },
    });
    c.connect();
    await stateReached(c, 'open');
    await new Promise((r) => setTimeout(r, 200));
    const value = await flipAsnap();
    expect(late).not.toBeNull();
    expect(await late).toMatchObject({ custom_var_value: value });
  });

  it('runs nes requests', async () => {
    const c = client(() => users.tokens.guest!);
    c.connect();
    await stateReached(c, 'open');
    const res = await c.request('/sealog-server/api/v1/custom_vars?name=freeSpaceInBytes');
    expect(res).toEqual({
      statusCode: 200,
      payload: [{ id: systemIds.freeSpaceInBytes, custom_var_name: 'freeSpaceInBytes', custom_var_value: '0' }],
    });
  });

  it('receives the output of an external call line by line until the end marker', async () => {
    const uid = '6410f20b6594c9977675e47b';
    const created = await t.api('POST', '/lowerings', {
      token: admin,
      body: {
        id: uid,
        lowering_id: 'S0492',
        lowering_location: '',
        lowering_tags: [],
        lowering_additional_meta: {},
        start_ts: '2023-03-14T00:00:00.000Z',
        stop_ts: '2023-03-15T00:00:00.000Z',
      },
    });
    expect(created.statusCode).toBe(201);
    const lines: string[] = [];
    const ended = waitFor<boolean>((resolve) => {
      void openExecuteOutput({
        url: `ws://127.0.0.1:${relay.port}/ws`,
        getToken: () => admin,
        createSocket: nodeSocket,
        onLine: (line) => lines.push(line),
        onEnd: () => resolve(true),
      }).then(async () => {
        const res = await t.api('GET', `/external_calls/export_lowering/${uid}`, { token: admin });
        expect(res.statusCode).toBe(202);
      });
    });
    expect(await ended).toBe(true);
    expect(lines[0]).toMatch(/^Executing .+ -e .+ S0492$/);
    expect(lines.slice(1)).toEqual(['exporting S0492', 'Process exited with code: 0']);
  });
});
