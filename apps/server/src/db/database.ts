import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  Kysely,
  Migrator,
  type Driver,
  SqliteDialect,
  type MigrationProvider,
  type SqliteDatabase,
} from 'kysely';
import type pgTypes from 'pg';
import { lazyPackage } from '../lib/lazy-package.js';
import type { DB } from './schema.js';
import { migrationsFor } from './migrations/index.js';
import { GinPendingCleanup } from './gin-pending-cleanup.js';
import { MigrationSafePostgresDialect } from './postgres-dialect.js';
import { WriteWorker } from './write-worker.js';
import { withSessionOptions } from './session-options.js';
import { TableWrites } from './table-writes.js';

export type Dialect = 'sqlite' | 'postgres';

export interface Database {
  db: Kysely<DB>;
  dialect: Dialect;
  /** For PostgreSQL: the connection string (LISTEN/NOTIFY opens its own client). */
  url: string | null;
  /** For PostgreSQL: the schema this database lives in (tests isolate themselves by schema). */
  schema: string | null;
  /**
   * For a SQLite file: the thread that writes group-commit batches on a connection of its own
   * (write-worker.ts); started at its first batch. Null for PostgreSQL and `:memory:`.
   */
  writeWorker: WriteWorker | null;
  /**
   * For a SQLite file: a second thread of the same kind, for the chunk queries of exports (reads on
   * a connection of its own, so a long export neither stops the event loop nor waits behind write
   * batches); started with the app (app.ts), or at its first read. Null for PostgreSQL and `:memory:`.
   */
  readWorker: WriteWorker | null;
  /**
   * For PostgreSQL: merges the GIN indexes' pending lists shortly after writes, off the requests'
   * path (gin-pending-cleanup.ts); writers of search-indexed rows call `wrote()`. Null for SQLite.
   */
  ginPendingCleanup: GinPendingCleanup | null;
  /** Which tables this process's statements write, as they are sent (table-writes.ts). */
  tableWrites: TableWrites;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** A postgres:// URL, or null for SQLite. */
  url: string | null;
  /** SQLite file path, or ':memory:'. */
  sqlitePath?: string;
  /**
   * SQLite in memory starting as a copy of these bytes (a database file's contents, not in WAL
   * mode) rather than empty: the test suites' migrated and seeded template (apps/server/test/test-app.ts).
   */
  sqliteImage?: Buffer;
  /** PostgreSQL schema to use (created when missing); default public. */
  schema?: string;
  poolSize?: number;
  /**
   * SQLite `synchronous`: FULL (default) syncs the WAL at every commit, so a power cut after a 2xx
   * loses nothing; NORMAL is faster but may drop the last commits on power loss (never corrupts).
   */
  sqliteSynchronous?: SqliteSynchronous;
  /** For a SQLite file: give it a write thread (default true; the thread's own connection has none). */
  writeThread?: boolean;
}

export type SqliteSynchronous = 'full' | 'normal' | 'extra';

const int8 = 20;

/**
 * SQLite rolls a transaction back by itself when a write fails with SQLITE_FULL; Kysely's ROLLBACK
 * then fails with "no transaction is active" and hides the real error. Skip it in that case, so
 * the disk-full error reaches the error handler (507).
 *
 * Transactions begin IMMEDIATE (every transaction of the app writes): the write thread
 * (write-worker.ts) is a second writer on the file, and a transaction that read first and then
 * found the file changed by it could not write (SQLITE_BUSY_SNAPSHOT, without waiting);
 * IMMEDIATE takes the write lock at BEGIN. While the thread holds it, BEGIN is tried again every
 * millisecond for up to busy_timeout without SQLite's busy handler, which would sleep on (and stop)
 * the event loop.
 */
class SqliteDialectAfterFullDisk extends SqliteDialect {
  constructor(
    private readonly sqlite: SQLite.Database,
    database: SqliteDatabase,
  ) {
    super({ database });
  }

  override createDriver(): Driver {
    const driver = super.createDriver();
    const rollback = driver.rollbackTransaction.bind(driver);
    driver.rollbackTransaction = async (connection) => {
      if (this.sqlite.inTransaction) await rollback(connection);
    };
    const begin = CompiledQuery.raw('begin immediate');
    driver.beginTransaction = async (connection) => {
      const deadline = Date.now() + busyTimeoutMs;
      for (;;) {
        this.sqlite.pragma('busy_timeout = 0');
        try {
          await connection.executeQuery(begin);
          return;
        } catch (error) {
          if ((error as { code?: unknown }).code !== 'SQLITE_BUSY' || Date.now() > deadline) throw error;
        } finally {
          this.sqlite.pragma(`busy_timeout = ${busyTimeoutMs}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
    };
    return driver;
  }
}

/** How long a SQLite connection waits for the write lock held by another. */
const busyTimeoutMs = 5000;

/** Prepared statements kept per SQLite connection (most recently used; SQL texts beyond it are prepared again). */
const statementCacheSize = 500;

/**
 * Kysely prepares every query again; preparing costs about as much as running a small query
 * (a CPU profile of small GETs showed it). The connection handed to Kysely keeps its prepared statements by SQL
 * text and reuses them. A statement still being iterated (a stream) is not shared: the second
 * user gets a fresh one.
 */
export function withStatementCache(sqlite: SQLite.Database): SqliteDatabase {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => {
      cache.clear();
      sqlite.close();
    },
    prepare(sqlText: string) {
      const cached = cache.get(sqlText);
      if (cached && !cached.busy) {
        // Most recently used last, so the first key is the one to evict.
        cache.delete(sqlText);
        cache.set(sqlText, cached);
        return cached;
      }
      const stmt = sqlite.prepare(sqlText);
      if (!cached) {
        cache.set(sqlText, stmt);
        if (cache.size > statementCacheSize) cache.delete(cache.keys().next().value!);
      }
      return stmt;
    },
  };
}

/**
 * node-postgres, loaded when a PostgreSQL database is opened: the SQLite write and read threads
 * (which open their database through here) and a ship's SQLite server never need it, and loading
 * it cost each thread a tenth of its start-up.
 */
export const loadPg = lazyPackage<typeof pgTypes>('pg');

export function openDatabase(opts: DatabaseOptions): Database {
  if (opts.url && /^postgres(ql)?:\/\//.test(opts.url)) {
    const pg = loadPg();
    const schema = opts.schema ?? null;
    const pool = new pg.Pool({
      connectionString: withSessionOptions(opts.url, [schema && `search_path=${schema}`]),
      max: opts.poolSize ?? 10,
      // Epoch-millisecond BIGINTs come back as numbers, as on SQLite.
      types: {
        getTypeParser: (oid: number, format?: 'text' | 'binary') =>
          oid === int8 ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format ?? 'text'),
      } as pgTypes.CustomTypesConfig,
    });
    const tableWrites = new TableWrites();
    const db = new Kysely<DB>({ dialect: new MigrationSafePostgresDialect({ pool }), plugins: [tableWrites] });
    const ginPendingCleanup = new GinPendingCleanup(db);
    return {
      db,
      dialect: 'postgres',
      url: opts.url,
      schema,
      writeWorker: null,
      readWorker: null,
      ginPendingCleanup,
      tableWrites,
      close: () => {
        ginPendingCleanup.stop();
        return db.destroy();
      },
    };
  }
  const file = opts.sqliteImage ? ':memory:' : (opts.sqlitePath ?? ':memory:');
  if (file !== ':memory:') mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SQLite(opts.sqliteImage ?? file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma(`synchronous = ${(opts.sqliteSynchronous ?? 'full').toUpperCase()}`);
  sqlite.pragma(`busy_timeout = ${busyTimeoutMs}`);
  // Read pages straight from the OS page cache: searches and exports touch pages all over a large
  // file, and SQLite's default 2 MB cache made each of those reads a system call (bench/ figures).
  sqlite.pragma('mmap_size = 4294967296');
  const tableWrites = new TableWrites();
  const db = new Kysely<DB>({
    dialect: new SqliteDialectAfterFullDisk(sqlite, withStatementCache(sqlite)),
    plugins: [tableWrites],
  });
  const sqliteSynchronous = opts.sqliteSynchronous ?? 'full';
  const threads = file !== ':memory:' && opts.writeThread !== false;
  const writeWorker = threads ? new WriteWorker({ sqlitePath: file, sqliteSynchronous }) : null;
  const readWorker = threads ? new WriteWorker({ sqlitePath: file, sqliteSynchronous }) : null;
  return {
    db,
    dialect: 'sqlite',
    url: null,
    schema: null,
    writeWorker,
    readWorker,
    ginPendingCleanup: null,
    tableWrites,
    close: async () => {
      await Promise.all([writeWorker?.close(), readWorker?.close()]);
      await db.destroy();
    },
  };
}

/** Brings the schema up to date. Runs at every start; a newer schema never drops data. */
export async function migrateToLatest(database: Database): Promise<void> {
  const { db, dialect, schema } = database;
  if (schema) await db.schema.createSchema(schema).ifNotExists().execute();
  const provider: MigrationProvider = { getMigrations: async () => migrationsFor(dialect) };
  const migrator = new Migrator({ db, provider, ...(schema ? { migrationTableSchema: schema } : {}) });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const reason = error instanceof Error ? error.message : String(error ?? failed?.migrationName);
    throw new Error(`Database migration failed: ${reason}`);
  }
}
