import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTestDatabase, engines } from '../../test/test-app.js';
import { migrateToLatest, type Database } from './database.js';
import { GroupCommit, writeBatch, type GroupWriter } from './group-commit.js';
import type { EventsTable } from './schema.js';

const row = (n: number, id = `e${String(n).padStart(23, '0')}`): EventsTable => ({
  id,
  ts: Date.UTC(2024, 0, 1) + n,
  event_author: 'admin',
  event_value: `VALUE ${n}`,
  event_options: '[]',
  event_free_text: '',
});

/** A write: insert the row; `breaks` makes it fail after its insert (a rule checked late). */
interface Item {
  row: EventsTable;
  breaks?: boolean;
}

describe.each(engines)('group commit on %s', (engine) => {
  let database: Database;
  let drop: () => Promise<void>;
  let calls: { many: number; one: number; statement?: number };

  const writer: GroupWriter<Item, string> = {
    async many(trx, items) {
      calls.many++;
      await trx
        .insertInto('events')
        .values(items.map((i) => i.row))
        .execute();
      if (items.some((i) => i.breaks)) throw new Error('rule broken after the insert');
      return items.map((i) => i.row.id);
    },
    async one(trx, item) {
      calls.one++;
      await trx.insertInto('events').values(item.row).execute();
      if (item.breaks) throw new Error('rule broken after the insert');
      return item.row.id;
    },
  };

  beforeEach(async () => {
    ({ database, drop } = await openTestDatabase(engine));
    await migrateToLatest(database);
    calls = { many: 0, one: 0 };
  });
  afterEach(async () => {
    await drop();
  });

  const committer = (concurrency?: number) =>
    new GroupCommit<Item, string>((items) => writeBatch(database.db, writer, items), concurrency);

  const storedIds = async () =>
    (await database.db.selectFrom('events').select('id').orderBy('id').execute()).map((r) => r.id);

  it('writes concurrent items in one batch and one commit; each caller gets its own result', async () => {
    const gc = committer();
    const rows = Array.from({ length: 40 }, (_, i) => row(i));
    const answers = await Promise.all(rows.map((r) => gc.write({ row: r })));
    expect(answers).toEqual(rows.map((r) => r.id));
    expect(calls).toEqual({ many: 1, one: 0 });
    expect(await storedIds()).toEqual(rows.map((r) => r.id).sort());
  });

  it('a failing write fails only its own caller; the others of the batch are stored', async () => {
    await database.db.insertInto('events').values(row(0, 'taken-id-000000000000000')).execute();
    const gc = committer();
    const results = await Promise.allSettled([
      gc.write({ row: row(1) }),
      // Same id as the row stored above: a unique violation inside the shared transaction.
      gc.write({ row: row(2, 'taken-id-000000000000000') }),
      gc.write({ row: row(3), breaks: true }),
      gc.write({ row: row(4) }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled']);
    expect((results[2] as PromiseRejectedResult).reason).toEqual(new Error('rule broken after the insert'));
    // The batch was tried at once, then item by item.
    expect(calls).toEqual({ many: 1, one: 4 });
    // The third write's insert was rolled back with it; the taken id keeps its original row.
    expect(await storedIds()).toEqual([row(1).id, row(4).id, 'taken-id-000000000000000'].sort());
    const taken = await database.db
      .selectFrom('events')
      .select('event_value')
      .where('id', '=', 'taken-id-000000000000000')
      .executeTakeFirstOrThrow();
    expect(taken.event_value).toBe('VALUE 0');
  });

  it('a write alone that fails is rolled back and rejected; the next batch still commits', async () => {
    const gc = committer();
    await expect(gc.write({ row: row(1), breaks: true })).rejects.toThrow('rule broken after the insert');
    await gc.write({ row: row(2) });
    expect(await storedIds()).toEqual([row(2).id]);
  });

  it('answers a write only after its transaction has committed', async () => {
    const gc = committer(2);
    const seen: string[] = [];
    await Promise.all(
      [1, 2, 3].map((n) =>
        gc.write({ row: row(n) }).then(async () => {
          // A separate read (another connection on PostgreSQL) already sees the row.
          const found = await database.db.selectFrom('events').select('id').where('id', '=', row(n).id).execute();
          seen.push(...found.map((r) => r.id));
        }),
      ),
    );
    expect(seen.sort()).toEqual([row(1).id, row(2).id, row(3).id]);
  });

  it('a writer with a one-statement write writes a batch in that statement; a failing row still fails only its own caller', async () => {
    const oneStatement: GroupWriter<Item, string> = {
      ...writer,
      async statement(db, items) {
        calls.statement = (calls.statement ?? 0) + 1;
        await db
          .insertInto('events')
          .values(items.map((i) => i.row))
          .execute();
        return items.map((i) => i.row.id);
      },
    };
    const gc = new GroupCommit<Item, string>((items) => writeBatch(database.db, oneStatement, items));
    const rows = Array.from({ length: 10 }, (_, i) => row(i));
    expect(await Promise.all(rows.map((r) => gc.write({ row: r })))).toEqual(rows.map((r) => r.id));
    expect(calls).toEqual({ many: 0, one: 0, statement: 1 });
    const results = await Promise.allSettled([
      gc.write({ row: row(20) }),
      gc.write({ row: row(3) }), // stored above: a unique violation fails the statement
      gc.write({ row: row(21) }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(calls).toEqual({ many: 0, one: 3, statement: 2 });
    expect(await storedIds()).toEqual([...rows.map((r) => r.id), row(20).id, row(21).id].sort());
    await expect(gc.write({ row: row(4) })).rejects.toThrow();
  });
});
