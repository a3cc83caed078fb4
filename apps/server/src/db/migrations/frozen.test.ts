import { createHash } from 'node:crypto';
import {
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
} from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Dialect } from '../database.js';
import { migrationsFor } from './index.js';

/**
 * The statements every migration runs, per engine, as sha256 of their text and parameters. A
 * database migrated by an earlier release never runs a migration again: a migration whose
 * statements change (say, through a helper in db/sql/ it shares with the queries) would leave
 * those databases different from new ones. Add a migration instead; a new one adds its line here.
 */
const frozen: Record<Dialect, Record<string, string>> = {
  sqlite: {
    '001-initial': '1caaa54ffe4a9ab9',
    '002-event-search': '6cca8f5150f5b0c1',
    '003-realtime-outbox': 'e3b0c44298fc1c14',
    '004-aux-data-search': 'c74f4623e5f9a564',
    '005-template-button-color': '474beb045ad31a80',
    '006-accounts': '5fb44402ae7ee946',
    '009-audit-filters': '224ff2fef34d603d',
    '010-search-at-scale': '9e04297886a242c7',
    '011-event-csv-shapes': '0f0c15d06dc878ab',
    '012-fulltext-without-asnap': '5c4f056f0159dd5f',
    '013-set-based-insert-triggers': '2d2689a3de527434',
    '014-event-creator': 'cf7093b8c27b4676',
    '015-login-token-hash': '9d054ab28a27002a',
    '016-audit-append-only': 'c9f314498f8d3e5e',
    '017-public-archive': 'f6535f82b5aa156a',
    '018-attachment-original-names': '736bb14e823e76a4',
    '019-ship-to-shore': 'd0a50a6763808128',
    '020-aux-completeness': '661698a254eb8709',
    '021-checklists': 'a141800f670a8dac',
    '022-relative-demo-framegrabs': '2bcdbf7e3a437ec9',
    '023-sync-refusals': 'f2f706db41e483fe',
    '024-origins-and-image-owners': '8a9bcb63420e1ca8',
    '025-event-created-at': '423868b8b3f3730a',
    '035-taxonomy': '3204760224ba4c9f',
    '038-publication-settings': '2b60a6a0e0939aa3',
    '032-recordings': '4e8bdbd9ecbef30a',
    '026-aux-managers': '1d6548e3fef16a43',
    '047-recording-copies-on-ship': '708d4ba561211848',
    '048-recording-copies-in-store': '2ba76861736e94b9',
    '049-recording-proxy-claims': '4ef3cc03dc701bff',
  },
  postgres: {
    '001-initial': 'abded546b17b4501',
    '002-event-search': 'd23d92ecfd6f6031',
    '003-realtime-outbox': '06a7682c9d36394e',
    '004-aux-data-search': '7a6b3ae9096d4056',
    '005-template-button-color': '474beb045ad31a80',
    '006-accounts': 'cc9188ab2705c82e',
    '009-audit-filters': '224ff2fef34d603d',
    '010-search-at-scale': '403749cab6bcc8fa',
    '011-event-csv-shapes': 'cf1345e9251f3999',
    '012-fulltext-without-asnap': 'e3b0c44298fc1c14',
    '013-set-based-insert-triggers': '9fabae65baa78b54',
    '014-event-creator': '60f999cafa0486d4',
    '015-login-token-hash': '9d054ab28a27002a',
    '016-audit-append-only': '98868232838eac74',
    '017-public-archive': 'f6535f82b5aa156a',
    '018-attachment-original-names': '736bb14e823e76a4',
    '019-ship-to-shore': '6cc76976f26ab2be',
    '020-aux-completeness': '661698a254eb8709',
    '021-checklists': 'a141800f670a8dac',
    '022-relative-demo-framegrabs': '70f08a008cc93b5f',
    '023-sync-refusals': 'f2f706db41e483fe',
    '024-origins-and-image-owners': '57b237f3736fbf18',
    '025-event-created-at': '423868b8b3f3730a',
    '035-taxonomy': '0d63b45dfae566a9',
    '038-publication-settings': '2b60a6a0e0939aa3',
    '032-recordings': '4e8bdbd9ecbef30a',
    '026-aux-managers': '1d6548e3fef16a43',
    '047-recording-copies-on-ship': '708d4ba561211848',
    '048-recording-copies-in-store': '2ba76861736e94b9',
    '049-recording-proxy-claims': '4ef3cc03dc701bff',
  },
};

/** Runs the migrations on a connection that records each statement and returns no rows. */
async function statements(dialect: Dialect): Promise<Record<string, string>> {
  let current: string[] = [];
  const connection: DatabaseConnection = {
    async executeQuery(query: CompiledQuery) {
      current.push(`${query.sql} ${JSON.stringify(query.parameters)}`);
      return { rows: [] as never[] };
    },
    // eslint-disable-next-line require-yield
    async *streamQuery() {
      return;
    },
  };
  const driver: Driver = {
    async init() {},
    async acquireConnection() {
      return connection;
    },
    async beginTransaction() {},
    async commitTransaction() {},
    async rollbackTransaction() {},
    async releaseConnection() {},
    async destroy() {},
  };
  const sqlite = dialect === 'sqlite';
  const db = new Kysely<unknown>({
    dialect: {
      createAdapter: () => (sqlite ? new SqliteAdapter() : new PostgresAdapter()),
      createDriver: () => driver,
      createIntrospector: (k) => (sqlite ? new SqliteIntrospector(k) : new PostgresIntrospector(k)),
      createQueryCompiler: () => (sqlite ? new SqliteQueryCompiler() : new PostgresQueryCompiler()),
    },
  });
  const hashes: Record<string, string> = {};
  for (const [name, migration] of Object.entries(migrationsFor(dialect))) {
    current = [];
    await migration.up(db);
    hashes[name] = createHash('sha256').update(current.join('\n')).digest('hex').slice(0, 16);
  }
  return hashes;
}

describe('released migrations', () => {
  for (const dialect of ['sqlite', 'postgres'] as const) {
    it(`run the same statements as when released (${dialect})`, async () => {
      expect(await statements(dialect)).toEqual(frozen[dialect]);
    });
  }
});
