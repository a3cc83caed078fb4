import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyBaseLogger, FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { buildApp } from '../src/app.js';
import { loadConfig, type ConfigInput } from '../src/config.js';
import type { AppContext } from '../src/context.js';
import type { RouteEntry } from '../src/plugins/route-table.js';
import { migrateToLatest, openDatabase, type Database } from '../src/db/database.js';
import { UsersRepository, type UserRecord } from '../src/modules/users/users.repository.js';
import { seedSystem, systemIds } from '../src/seed/system.js';
import { setPasswordHashCost } from '../src/lib/passwords.js';
import { withSessionOptions } from '../src/db/session-options.js';

/**
 * Engines every storage and API suite runs on: SQLite always, PostgreSQL when
 * TEST_DATABASE_URL is set (CI sets it). Use with `describe.each(engines)`.
 */
export const engines: Array<'sqlite' | 'postgres'> = process.env.TEST_DATABASE_URL
  ? ['sqlite', 'postgres']
  : ['sqlite'];

let schemaCounter = 0;

/**
 * The test apps' sessions commit without waiting for the WAL's flush (`synchronous_commit = off`):
 * what a transaction sees and when others see it are unchanged; only a crash of PostgreSQL itself
 * could lose the last commits, which no suite here causes. Each commit otherwise waited for an
 * fsync of the shared server's disk, thousands of times per suite
 * (docs/performance.md#how-long-the-tests-take). Crash and durability suites run server processes
 * with their own connections, as configured in production.
 */
const testSessionOptions = ['synchronous_commit=off'];

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
  const database = openDatabase({ url: withSessionOptions(url, testSessionOptions), schema, poolSize: 4 });
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

/** The seed most test apps start from: production mode, admin's password `demo` (createTestApp's config). */
const templateSeed = { mode: 'production', adminPassword: 'demo' } as const;

/**
 * bcrypt's lowest cost for the passwords test apps store (docs/security.md#password-hashes): at the
 * production cost, hashing was 40 % of the role matrix's CPU. A suite that sets `passwordHashCost` gets its own.
 */
const testPasswordHashCost = 4;
let sqliteTemplate: Promise<Buffer> | null = null;

/**
 * A SQLite database migrated and seeded as `templateSeed` seeds it, made once per process and
 * copied into memory for each test app: the migrations and the seed's three bcrypt hashes cost about
 * a quarter of a second of CPU per app (docs/performance.md#how-long-the-tests-take). The app's
 * start-up then finds every migration applied and the system users there, as on a restarted server.
 */
function sqliteTemplateImage(): Promise<Buffer> {
  sqliteTemplate ??= (async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'bathylog-template-'));
    try {
      const file = path.join(dir, 'template.sqlite');
      const database = openDatabase({ url: null, sqlitePath: file, writeThread: false, sqliteSynchronous: 'normal' });
      await migrateToLatest(database);
      const log = { warn: () => {}, info: () => {} } as unknown as FastifyBaseLogger;
      setPasswordHashCost(testPasswordHashCost);
      await seedSystem(database, { ...templateSeed, log });
      // An image in WAL mode does not open in memory.
      await sql`pragma journal_mode = delete`.execute(database.db);
      await database.close();
      return readFileSync(file);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  })();
  return sqliteTemplate;
}

async function openSqliteFromTemplate(): Promise<{ database: Database; drop(): Promise<void> }> {
  const database = openDatabase({ url: null, sqliteImage: await sqliteTemplateImage() });
  return { database, drop: () => database.close() };
}

let templateUsers: Promise<UserRecord[]> | null = null;

/**
 * A fresh PostgreSQL schema, migrated, holding the template's system users (their password
 * hashes made once per process): the app's seed finds them and adds only what is missing.
 */
async function openPostgresWithTemplateUsers(): Promise<{ database: Database; drop(): Promise<void> }> {
  templateUsers ??= (async () => {
    const template = await openSqliteFromTemplate();
    try {
      const repo = new UsersRepository(template.database.db);
      const users = [];
      for (const id of [systemIds.admin, systemIds.guest, systemIds.pi]) users.push((await repo.findById(id))!);
      return users;
    } finally {
      await template.drop();
    }
  })();
  const opened = await openTestDatabase('postgres');
  try {
    await migrateToLatest(opened.database);
    const repo = new UsersRepository(opened.database.db);
    for (const user of await templateUsers) await repo.insert(user);
    return opened;
  } catch (err) {
    await opened.drop();
    throw err;
  }
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
  /** Resolves once the change feed serves every change written so far (see `feedSettled`). */
  feedSettled(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Resolves once the change feed can serve every audit row written so far. On PostgreSQL the feed
 * holds a row back while any transaction begun before it is still open anywhere on the server
 * (docs/ship-to-shore.md#the-cursor), and the files running beside a test open such transactions at
 * any moment (another app's migrations, a test holding one open on purpose): a follower gets the
 * rows at its next poll, a test that reads the feed right after writing waits for them here.
 */
export async function feedSettled(database: Database, timeoutMs = 20_000): Promise<void> {
  if (database.dialect !== 'postgres') return;
  const deadline = Date.now() + timeoutMs;
  const { rows } = await sql<{ xid: string | null }>`select max(xid)::text as xid from audit_log`.execute(database.db);
  const last = rows[0]?.xid;
  if (!last) return;
  for (;;) {
    const { rows: now } = await sql<{ settled: boolean }>`select pg_snapshot_xmin(pg_current_snapshot()) > ${last}::xid8
      as settled`.execute(database.db);
    if (now[0]?.settled) return;
    if (Date.now() > deadline)
      throw new Error(`A transaction older than audit row xid ${last} stayed open ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
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
      passwordHashCost: testPasswordHashCost,
      ...overrides,
    },
  );
  const fromTemplate = config.mode === templateSeed.mode && config.adminPassword === templateSeed.adminPassword;
  const { database, drop } = shared
    ? { database: shared, drop: () => shared.close() }
    : !fromTemplate
      ? await openTestDatabase(engine)
      : engine === 'sqlite'
        ? await openSqliteFromTemplate()
        : await openPostgresWithTemplateUsers();
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
    feedSettled: () => feedSettled(database),
    async close() {
      await app.close();
      await drop();
      rmSync(dataDir, { recursive: true, force: true });
      failOnMismatch();
    },
  };
}
