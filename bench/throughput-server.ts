/**
 * Child process of throughput.bench.ts: one server per process, so each gets a core of its own
 * and the load generator another. `node --import tsx throughput-server.ts <kind>` with
 * - `echo`: a bare Fastify route answering a small JSON body (the request-overhead anchor);
 * - `insert`: a bare Fastify route doing one durable insert of an event row per request into a
 *   plain table with the events columns (the durable-write anchor), same database settings;
 * - `app`: the real server (buildApp) on the same database settings.
 * SQLite runs with `synchronous = FULL` in every kind (`BENCH_SYNCHRONOUS` to change it).
 * Env: PORT, BENCH_KIND_DB (SQLite file) or DATABASE_URL (PostgreSQL), and the server's own env.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import Fastify from 'fastify';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import type { SqliteSynchronous } from '../apps/server/src/db/database.js';

const kind = process.argv[2];
const port = Number(process.env.PORT ?? 8600);
const synchronous = process.env.BENCH_SYNCHRONOUS ?? 'FULL';
const pgUrl = process.env.DATABASE_URL ?? null;

/** A 24-hex id like the server's ObjectIds. */
let counter = randomBytes(3).readUIntBE(0, 3);
const processBytes = randomBytes(5).toString('hex');
function objectId(): string {
  counter = (counter + 1) % 0xffffff;
  const seconds = Math.floor(Date.now() / 1000);
  return seconds.toString(16).padStart(8, '0') + processBytes + counter.toString(16).padStart(6, '0');
}

interface Body {
  event_value: string;
  event_options?: Array<{ event_option_name: string; event_option_value: string }>;
  event_free_text?: string;
}

const columns =
  'id TEXT PRIMARY KEY, ts BIGINT NOT NULL, event_author TEXT NOT NULL, event_value TEXT NOT NULL, ' +
  'event_options TEXT NOT NULL, event_free_text TEXT NOT NULL';

async function bare(): Promise<void> {
  const app = Fastify({ logger: false });
  app.get('/echo', async () => ({ ok: true, name: 'echo', values: [1, 2, 3] }));
  if (kind === 'insert') {
    let insert: (row: unknown[]) => Promise<void>;
    if (pgUrl) {
      const pool = new pg.Pool({ connectionString: pgUrl, max: 10 });
      await pool.query(`CREATE TABLE IF NOT EXISTS bench_events (${columns})`);
      insert = async (row) => {
        await pool.query('INSERT INTO bench_events VALUES ($1, $2, $3, $4, $5, $6)', row);
      };
    } else {
      const db = new SQLite(process.env.BENCH_KIND_DB!);
      db.pragma('journal_mode = WAL');
      db.pragma(`synchronous = ${synchronous}`);
      db.pragma('busy_timeout = 5000');
      db.exec(`CREATE TABLE IF NOT EXISTS bench_events (${columns})`);
      const stmt = db.prepare('INSERT INTO bench_events VALUES (?, ?, ?, ?, ?, ?)');
      insert = async (row) => {
        stmt.run(row);
      };
    }
    app.post('/events', async (req, reply) => {
      const body = req.body as Body;
      const row = [
        objectId(),
        Date.now(),
        'admin',
        body.event_value,
        JSON.stringify(body.event_options ?? []),
        body.event_free_text ?? '',
      ];
      await insert(row);
      return reply.code(201).send({ acknowledged: true, insertedId: row[0] });
    });
  }
  await app.listen({ port, host: '127.0.0.1' });
}

async function real(): Promise<void> {
  const { buildApp } = await import('../apps/server/src/app.js');
  const { loadConfig } = await import('../apps/server/src/config.js');
  const { openDatabase } = await import('../apps/server/src/db/database.js');
  const config = loadConfig();
  // Both SQLite connections (the main one and the write thread's) get the setting.
  const database = openDatabase({
    url: config.databaseUrl,
    sqlitePath: path.join(config.dataDir, 'bathylog.sqlite'),
    sqliteSynchronous: synchronous.toLowerCase() as SqliteSynchronous,
    // BENCH_WRITE_THREAD=0: SQLite batches on the main connection (for a side-by-side run).
    writeThread: process.env.BENCH_WRITE_THREAD !== '0',
  });
  if (process.env.BENCH_LOOP_DELAY) {
    // The event loop's stalls while the server runs, printed when it stops (for profiling).
    const delay = monitorEventLoopDelay({ resolution: 1 });
    delay.enable();
    process.prependListener('SIGTERM', () => {
      const ms = (ns: number) => (ns / 1e6).toFixed(1);
      const cpu = process.cpuUsage();
      console.log(
        `event loop delay: p50 ${ms(delay.percentile(50))} ms, p99 ${ms(delay.percentile(99))} ms, max ${ms(delay.max)} ms; ` +
          `CPU (all threads) ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms`,
      );
    });
  }
  const { app } = await buildApp({ config, database });
  app.addHook('onClose', () => database.close());
  await app.listen({ port, host: '127.0.0.1' });
}

(kind === 'app' ? real() : bare()).catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
process.on('SIGTERM', () => process.exit(0));
