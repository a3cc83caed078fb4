import { sql } from 'kysely';
import type { Database } from './database.js';
import { sqliteDay } from './sql/event-days.js';

export interface IntegrityReport {
  ok: boolean;
  /** What was checked, one line each (the CLI prints them). */
  checks: string[];
  /** Empty when ok. */
  problems: string[];
}

/** Row counts of the tables a backup or an import is judged by. */
export const countedTables = [
  'users',
  'cruises',
  'lowerings',
  'events',
  'event_aux_data',
  'event_templates',
  'custom_vars',
  'device_keys',
  'audit_log',
] as const;

export type TableCounts = Record<(typeof countedTables)[number], number>;

export async function countRows(database: Database): Promise<TableCounts> {
  const out = {} as TableCounts;
  for (const table of countedTables) {
    const row = await database.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    out[table] = Number(row.n);
  }
  return out;
}

/**
 * The database's own integrity check plus the invariants the server keeps across tables.
 * SQLite: PRAGMA integrity_check, foreign_key_check and the full-text indexes' integrity-check.
 * PostgreSQL (which guards its own pages): amcheck on every B-tree index of the schema when the
 * extension is installed. Both: no aux data without its event, the search projection in step
 * with the events.
 */
export async function checkIntegrity(database: Database): Promise<IntegrityReport> {
  const { db } = database;
  const checks: string[] = [];
  const problems: string[] = [];
  if (database.dialect === 'sqlite') {
    const rows = (await sql<{ integrity_check: string }>`PRAGMA integrity_check`.execute(db)).rows;
    const bad = rows.map((r) => r.integrity_check).filter((r) => r !== 'ok');
    checks.push('SQLite integrity_check');
    problems.push(...bad.map((r) => `integrity_check: ${r}`));
    const fk = (await sql<{ table: string }>`PRAGMA foreign_key_check`.execute(db)).rows;
    checks.push('SQLite foreign_key_check');
    if (fk.length) problems.push(`foreign_key_check: ${fk.length} rows point at missing rows (${fk[0]!.table})`);
    checks.push('full-text index integrity-check');
    try {
      await sql`INSERT INTO events_fts(events_fts) VALUES ('integrity-check')`.execute(db);
    } catch (err) {
      problems.push(`full-text index: ${(err as Error).message}`);
    }
    // The index without ASNAP (migration 012) is checked against its content too: the events of
    // event_search whose value is not ASNAP, so an index that drifted from the events shows here.
    checks.push('full-text index without ASNAP matches the events');
    try {
      await sql`INSERT INTO events_fts_no_asnap(events_fts_no_asnap, rank) VALUES ('integrity-check', 1)`.execute(db);
    } catch (err) {
      problems.push(`full-text index without ASNAP: ${(err as Error).message}`);
    }
  } else {
    const schema = database.schema ?? 'public';
    const amcheck = (
      await sql<{ nspname: string }>`
        SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
        WHERE e.extname = 'amcheck'`.execute(db)
    ).rows[0];
    if (amcheck) {
      const indexes = (
        await sql<{ name: string; oid: number }>`
          SELECT c.relname AS name, c.oid::int AS oid FROM pg_index i
          JOIN pg_class c ON c.oid = i.indexrelid
          JOIN pg_namespace n ON n.oid = c.relnamespace
          JOIN pg_am am ON am.oid = c.relam
          WHERE n.nspname = ${schema} AND am.amname = 'btree'`.execute(db)
      ).rows;
      for (const index of indexes) {
        try {
          await sql`SELECT ${sql.id(amcheck.nspname)}.bt_index_check(${index.oid}::regclass, true)`.execute(db);
        } catch (err) {
          problems.push(`index ${index.name}: ${(err as Error).message}`);
        }
      }
      checks.push(`amcheck on ${indexes.length} B-tree indexes`);
    } else {
      checks.push('amcheck not installed (CREATE EXTENSION amcheck enables the index check)');
    }
  }
  const orphans = await db
    .selectFrom('event_aux_data as a')
    .leftJoin('events as e', 'e.id', 'a.event_id')
    .where('e.id', 'is', null)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  checks.push('aux data belongs to events');
  if (Number(orphans.n) > 0) problems.push(`${orphans.n} aux data records belong to no event`);
  const events = await db
    .selectFrom('events')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  const searchRows = (await sql<{ n: number | string }>`SELECT count(*) AS n FROM event_search`.execute(db)).rows[0]!;
  checks.push('search index covers every event');
  if (Number(events.n) !== Number(searchRows.n))
    problems.push(`search index has ${searchRows.n} rows for ${events.n} events`);
  if (database.dialect === 'sqlite') {
    // The per-day value counts (migration 010) the management page's count adds up.
    const perDay = `SELECT event_value, ${sqliteDay('ts')} AS day, count(*) AS n FROM events GROUP BY 1, 2`;
    const stored = 'SELECT event_value, day, n FROM event_value_days';
    const off = (
      await sql<{ n: number }>`SELECT count(*) AS n FROM (
        SELECT event_value, day FROM (${sql.raw(perDay)} EXCEPT ${sql.raw(stored)})
        UNION SELECT event_value, day FROM (${sql.raw(stored)} EXCEPT ${sql.raw(perDay)}))`.execute(db)
    ).rows[0]!;
    checks.push('event counts per value and day match the events');
    if (Number(off.n) > 0) problems.push(`${off.n} per-day value counts (value and day) differ from the events`);
  }
  return { ok: problems.length === 0, checks, problems };
}
