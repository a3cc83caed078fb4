import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../test/test-app.js';
import { migrateToLatest, type Database } from './database.js';
import { GinPendingCleanup } from './gin-pending-cleanup.js';

const url = process.env.TEST_DATABASE_URL;

/** Pending-list pages merged by a merge of every GIN index of the schema now (0: none were left). */
async function pendingPages(database: Database): Promise<number> {
  const { rows } = await sql<{ pages: string | number }>`SELECT coalesce(sum(gin_clean_pending_list(c.oid)), 0) AS pages
    FROM pg_class c JOIN pg_am a ON a.oid = c.relam
    WHERE a.amname = 'gin' AND c.relnamespace = current_schema()::regnamespace`.execute(database.db);
  return Number(rows[0]!.pages);
}

async function insertEvents(database: Database, from: number, count: number): Promise<void> {
  await database.db
    .insertInto('events')
    .values(
      Array.from({ length: count }, (_, i) => ({
        id: `e${String(from + i).padStart(23, '0')}`,
        ts: Date.UTC(2024, 0, 1) + from + i,
        event_author: `author ${from + i}`,
        event_value: 'OBSERVATION',
        event_options: JSON.stringify([{ event_option_name: 'type', event_option_value: `octopus ${from + i}` }]),
        event_free_text: `small octopus number ${from + i} near the vehicle`,
      })),
    )
    .execute();
}

/** Counts the merges of `cleanup` (its private `merge`), calling `during` as each starts. */
function countMerges(cleanup: GinPendingCleanup, during: (n: number) => void = () => undefined) {
  const target = cleanup as unknown as { merge(): Promise<void> };
  const merge = target.merge.bind(cleanup);
  const count = { started: 0, done: 0 };
  target.merge = async () => {
    const running = merge();
    during(++count.started);
    await running;
    count.done++;
  };
  return count;
}

const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
};

describe.skipIf(!url)('GIN pending lists merged after writes (PostgreSQL)', () => {
  let database: Database;
  let drop: () => Promise<void>;

  beforeEach(async () => {
    ({ database, drop } = await openTestDatabase('postgres'));
    await migrateToLatest(database);
  });
  afterEach(async () => {
    await drop();
  });

  it('leaves the search indexes nothing pending once it ran', async () => {
    await insertEvents(database, 0, 50);
    // Without it, the rows wait in the pending lists.
    expect(await pendingPages(database)).toBeGreaterThan(0);

    await insertEvents(database, 50, 50);
    const cleanup = new GinPendingCleanup(database.db, 1);
    const merges = countMerges(cleanup);
    cleanup.wrote();
    await until(() => merges.done === 1);
    expect(merges.done).toBe(1);
    expect(await pendingPages(database)).toBe(0);
    cleanup.stop();
  });

  it('merges once more when written to during a merge, and never after stop()', async () => {
    const cleanup = new GinPendingCleanup(database.db, 1);
    // A write while the first merge runs.
    const merges = countMerges(cleanup, (n) => n === 1 && cleanup.wrote());
    await insertEvents(database, 0, 20);
    cleanup.wrote();
    cleanup.wrote(); // one merge for both
    await until(() => merges.done >= 2);
    await new Promise((r) => setTimeout(r, 50));
    expect(merges.done).toBe(2);
    expect(await pendingPages(database)).toBe(0);

    cleanup.stop();
    await insertEvents(database, 20, 20);
    cleanup.wrote();
    await new Promise((r) => setTimeout(r, 50));
    expect(merges.started).toBe(2);
  });

  it('comes with a PostgreSQL database', async () => {
    expect(database.ginPendingCleanup).toBeInstanceOf(GinPendingCleanup);
  });
});
