import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTestDatabase, engines } from '../../test/test-app.js';
import { migrateToLatest, type Database } from './database.js';
import { GroupCommit } from './group-commit.js';
import type { EventsTable } from './schema.js';

const row = (n: number, id = `e${String(n).padStart(23, '0')}`): EventsTable => ({
  id,
  ts: Date.UTC(2024, 0, 1) + n,
  event_author: 'admin',
  event_value: `VALUE ${n}`,
  event_options: '[]',
  event_free_text: '',
});

describe.each(engines)('group commit on %s', (engine) => {
  let database: Database;
  let drop: () => Promise<void>;

  beforeEach(async () => {
    ({ database, drop } = await openTestDatabase(engine));
    await migrateToLatest(database);
  });
  afterEach(async () => {
    await drop();
  });

  const storedIds = async () =>
    (await database.db.selectFrom('events').select('id').orderBy('id').execute()).map((r) => r.id);

  it('stores every concurrent write once, and answers each with its own result', async () => {
    const gc = new GroupCommit(database.db);
    const rows = Array.from({ length: 40 }, (_, i) => row(i));
    const answers = await Promise.all(
      rows.map((r) =>
        gc.run(async (trx) => {
          await trx.insertInto('events').values(r).execute();
          return r.id;
        }),
      ),
    );
    expect(answers).toEqual(rows.map((r) => r.id));
    expect(await storedIds()).toEqual(rows.map((r) => r.id).sort());
  });

  it('a failing write fails only its own caller; the others of the batch are stored', async () => {
    await database.db.insertInto('events').values(row(0, 'taken-id-000000000000000')).execute();
    const gc = new GroupCommit(database.db);
    const results = await Promise.allSettled([
      gc.run((trx) => trx.insertInto('events').values(row(1)).execute()),
      // Same id as the row stored above: a unique violation inside the shared transaction.
      gc.run((trx) => trx.insertInto('events').values(row(2, 'taken-id-000000000000000')).execute()),
      gc.run(async (trx) => {
        await trx.insertInto('events').values(row(3)).execute();
        throw new Error('rule broken after the insert');
      }),
      gc.run((trx) => trx.insertInto('events').values(row(4)).execute()),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled']);
    expect((results[2] as PromiseRejectedResult).reason).toEqual(new Error('rule broken after the insert'));
    // The third write's insert was rolled back with it; the value of the taken id is the original.
    expect(await storedIds()).toEqual([row(1).id, row(4).id, 'taken-id-000000000000000'].sort());
    const taken = await database.db
      .selectFrom('events')
      .select('event_value')
      .where('id', '=', 'taken-id-000000000000000')
      .executeTakeFirstOrThrow();
    expect(taken.event_value).toBe('VALUE 0');
  });

  it('a write alone that fails is rolled back and rejected; the next batch still commits', async () => {
    const gc = new GroupCommit(database.db);
    await expect(
      gc.run(async (trx) => {
        await trx.insertInto('events').values(row(1)).execute();
        throw new Error('no');
      }),
    ).rejects.toThrow('no');
    await gc.run((trx) => trx.insertInto('events').values(row(2)).execute());
    expect(await storedIds()).toEqual([row(2).id]);
  });

  it('answers a write only after its transaction has committed', async () => {
    const gc = new GroupCommit(database.db);
    const seen: string[] = [];
    await Promise.all(
      [1, 2, 3].map((n) =>
        gc
          .run((trx) => trx.insertInto('events').values(row(n)).execute())
          .then(async () => {
            // A separate read (another connection on PostgreSQL) already sees the row.
            const found = await database.db.selectFrom('events').select('id').where('id', '=', row(n).id).execute();
            seen.push(...found.map((r) => r.id));
          }),
      ),
    );
    expect(seen.sort()).toEqual([row(1).id, row(2).id, row(3).id]);
  });
});
