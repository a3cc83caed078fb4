import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wsPath } from '@bathylog/shared';
import { ensureServerBuild, serverBuild } from '../../../../scripts/build-server.mjs';
import { openDatabase } from '../db/database.js';
import { systemIds } from '../seed/system.js';
import { RawClient, scriptHello } from './testing/ws-test-client.js';

const url = process.env.TEST_DATABASE_URL;
const repoRoot = path.resolve(import.meta.dirname, '../../../..');

/** A port of 8700-8799 nobody listens on right now. */
async function freePort(exclude: number[]): Promise<number> {
  for (let port = 8700 + Math.floor(Math.random() * 50); port <= 8799; port++) {
    if (exclude.includes(port)) continue;
    const free = await new Promise<boolean>((resolve) => {
      const probe = net.createServer();
      probe.once('error', () => resolve(false));
      probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error('no free port in 8700-8799');
}

interface Server {
  port: number;
  child: ChildProcess;
  output: string[];
  base: string;
}

/**
 * Two real server processes (the compiled server, `node apps/server/dist/main.js`) on one PostgreSQL
 * schema: a change made through one reaches websocket subscribers of the other, and only one of
 * them runs the singleton jobs.
 */
describe.skipIf(!url)('two server processes on one PostgreSQL database', () => {
  const schema = `t_xproc_${process.pid}_${Date.now().toString(36)}`;
  const servers: Server[] = [];
  const dirs: string[] = [];
  const clients: RawClient[] = [];

  const start = async (): Promise<Server> => {
    const port = await freePort(servers.map((s) => s.port));
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bathylog-xproc-'));
    dirs.push(dataDir);
    await ensureServerBuild();
    const child = spawn(process.execPath, ['--enable-source-maps', serverBuild.outfile], {
      cwd: repoRoot,
      env: {
        ...process.env,
        DATABASE_URL: url,
        DATABASE_SCHEMA: schema,
        PORT: String(port),
        HOST: '127.0.0.1',
        BATHYLOG_DATA: dataDir,
        BATHYLOG_MODE: 'production',
        BATHYLOG_ADMIN_PASSWORD: 'demo',
        SEALOG_SERVER_SECRET: 'cross-process-secret',
        BATHYLOG_ASNAP_ENABLED: 'true',
        BATHYLOG_ASNAP_INTERVAL: '3600',
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const server: Server = { port, child, output: [], base: `http://127.0.0.1:${port}` };
    servers.push(server);
    child.stdout!.on('data', (d: Buffer) => server.output.push(d.toString()));
    child.stderr!.on('data', (d: Buffer) => server.output.push(d.toString()));
    const deadline = Date.now() + 45_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`server exited: ${server.output.join('')}`);
      try {
        const res = await fetch(`${server.base}/sealog-server`);
        if (res.ok) return server;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error(`server did not start: ${server.output.join('')}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  };

  const login = async (server: Server) => {
    const res = await fetch(`${server.base}/sealog-server/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'demo' }),
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as { token: string }).token;
  };

  beforeAll(async () => {
    // One after the other: the first creates the schema and seeds it.
    await start();
    await start();
  }, 120_000);

  afterAll(async () => {
    for (const c of clients) c.close();
    await Promise.all(
      servers.map(
        (s) =>
          new Promise<void>((resolve) => {
            if (s.child.exitCode !== null) return resolve();
            s.child.once('exit', () => resolve());
            s.child.kill('SIGTERM');
          }),
      ),
    );
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    const admin = openDatabase({ url: url!, poolSize: 1 });
    await admin.db.schema.dropSchema(schema).ifExists().cascade().execute();
    await admin.close();
  }, 60_000);

  it('delivers a change made through process A to a subscriber connected to process B', async () => {
    const [a, b] = servers as [Server, Server];
    const token = await login(a);
    const c = await RawClient.open(b.port);
    clients.push(c);
    const path = wsPath('updateCustomVars');
    expect((await c.call(scriptHello(token, [path, wsPath('newEvents')]))).type).toBe('hello');
    const pub = c.nextPub(path, 10_000);
    const res = await fetch(`${a.base}/sealog-server/api/v1/custom_vars/${systemIds.asnapStatus}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ custom_var_value: 'On' }),
    });
    expect(res.status).toBe(204);
    expect(await pub).toEqual({ id: systemIds.asnapStatus, custom_var_name: 'asnapStatus', custom_var_value: 'On' });
    // An event POSTed on A, as a logging client would (switching ASNAP on also logged one).
    const newEvent = c
      .next(
        (f) => f.type === 'pub' && (f.message as { event_value?: string }).event_value === 'FISH',
        10_000,
        c.frames.length,
      )
      .then((f) => f.message);
    const posted = await fetch(`${a.base}/sealog-server/api/v1/events`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ event_value: 'FISH', event_free_text: 'seen from B' }),
    });
    expect(posted.status).toBe(201);
    const { insertedEvent } = (await posted.json()) as { insertedEvent: unknown };
    expect(await newEvent).toEqual(insertedEvent);
    // Exactly once, even though both processes hear the notification.
    const marker = c.nextPub(path, 10_000);
    await fetch(`${a.base}/sealog-server/api/v1/custom_vars/${systemIds.asnapStatus}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ custom_var_value: 'Off' }),
    });
    await marker;
    // Both processes run ASNAP (hourly here) but only the leader logged the snapshot taken when it was switched on.
    const count = await fetch(`${b.base}/sealog-server/api/v1/events/count?value=ASNAP`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(await count.json()).toEqual({ events: 1 });
    expect(c.pubs(path).filter((p) => (p as { custom_var_name: string }).custom_var_name === 'asnapStatus')).toEqual([
      { id: systemIds.asnapStatus, custom_var_name: 'asnapStatus', custom_var_value: 'On' },
      { id: systemIds.asnapStatus, custom_var_name: 'asnapStatus', custom_var_value: 'Off' },
    ]);
  });

  it('runs the singleton jobs (ASNAP, free space) in exactly one process', () => {
    const leaders = servers.filter((s) => s.output.join('').includes('this process runs the singleton jobs'));
    expect(leaders).toHaveLength(1);
  });
});
