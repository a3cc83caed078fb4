import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../src/app.js';
import { loadConfig, type ConfigInput } from '../src/config.js';
import type { AppContext } from '../src/context.js';
import type { RouteEntry } from '../src/plugins/route-table.js';
import { openDatabase, type Database } from '../src/db/database.js';

/**
 * Engines every storage and API suite runs on: SQLite always, PostgreSQL when
 * TEST_DATABASE_URL is set (CI sets it). Use with `describe.each(engines)`.
 */
export const engines: Array<'sqlite' | 'postgres'> = process.env.TEST_DATABASE_URL
  ? ['sqlite', 'postgres']
  : ['sqlite'];

let schemaCounter = 0;

/** A fresh, empty database on the engine: SQLite in memory, or a new PostgreSQL schema. */
export async function openTestDatabase(
  engine: 'sqlite' | 'postgres',
): Promise<{ database: Database; drop(): Promise<void> }> {
  if (engine === 'sqlite') {
    const database = openDatabase({ url: null, sqlitePath: ':memory:' });
    return { database, drop: () => database.close() };
  }
  const url = process.env.TEST_DATABASE_URL!;
  const schema = `t_${process.pid}_${Date.now().toString(36)}_${schemaCounter++}`;
  const database = openDatabase({ url, schema, poolSize: 4 });
  return {
    database,
    drop: async () => {
      await database.close();
      const admin = openDatabase({ url, poolSize: 1 });
      await admin.db.schema.dropSchema(schema).ifExists().cascade().execute();
      await admin.close();
    },
  };
}

export interface TestApp {
  app: FastifyInstance;
  ctx: AppContext;
  /** Every route the server registered (its own route table). */
  routes: RouteEntry[];
  dataDir: string;
  /** Injects a request under /sealog-server/api/v1 (paths start with '/'). */
  api(
    method: InjectOptions['method'],
    url: string,
    opts?: { token?: string; body?: unknown; headers?: Record<string, string> },
  ): Promise<LightMyRequestResponse>;
  /** Logs in and returns the token. */
  login(username: string, password: string): Promise<string>;
  close(): Promise<void>;
}

/**
 * A server for tests, not listening. `shared`: a database opened by the test (several servers on
 * one PostgreSQL schema); it is closed, not dropped, with the server.
 */
export async function createTestApp(
  engine: 'sqlite' | 'postgres',
  overrides: ConfigInput = {},
  shared?: Database,
  now?: () => number,
): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bathylog-test-'));
  const config = loadConfig(
    {},
    {
      mode: 'production',
      adminPassword: 'demo',
      dataDir,
      secret: 'test-secret',
      logLevel: 'silent',
      asnap: { enabled: false },
      // Background jobs would change custom vars under other tests' feet; realtime tests turn them on.
      freeSpaceIntervalSeconds: 0,
      // Suites write from one address far faster than people do; limits are tested on their own.
      writeRateLimit: { perKey: 0, perAddress: 0 },
      // No built client unless a test gives one: whether apps/web/dist exists on this machine must not
      // change the route table (the role matrix and the fuzz suite are generated from it).
      webDir: path.join(dataDir, 'no-client'),
      ...overrides,
    },
  );
  const { database, drop } = shared ? { database: shared, drop: () => shared.close() } : await openTestDatabase(engine);
  // Every JSON answer is checked against its route's response schema: a request whose answer does
  // not fit fails (and a server closed with unreported mismatches, from direct `app.inject` calls).
  const mismatches: string[] = [];
  const failOnMismatch = () => {
    if (mismatches.length > 0)
      throw new Error(`Answer outside its response schema: ${mismatches.splice(0).join('\n')}`);
  };
  const { app, ctx, routes } = await buildApp({
    config,
    database,
    logger: false,
    onResponseMismatch: (violation) => mismatches.push(violation),
    ...(now ? { now } : {}),
  });
  await app.ready();
  const api: TestApp['api'] = async (method, url, opts = {}) => {
    const res = await app.inject({
      method,
      url: `/sealog-server/api/v1${url}`,
      headers: { ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}), ...opts.headers },
      ...(opts.body !== undefined ? { payload: opts.body as string } : {}),
    });
    failOnMismatch();
    return res;
  };
  return {
    app,
    ctx,
    routes,
    dataDir,
    api,
    async login(username, password) {
      const res = await api('POST', '/auth/login', { body: { username, password } });
      if (res.statusCode !== 200) throw new Error(`login ${username} failed: ${res.statusCode} ${res.body}`);
      return (res.json() as { token: string }).token;
    },
    async close() {
      await app.close();
      await drop();
      rmSync(dataDir, { recursive: true, force: true });
      failOnMismatch();
    },
  };
}
