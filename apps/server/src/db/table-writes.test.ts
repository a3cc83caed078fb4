import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TableWrites, type WrittenTables } from './table-writes.js';

interface TestDB {
  cruises: { id: string; name: string };
  lowerings: { id: string; cruise: string };
}

describe('TableWrites: the tables each statement writes', () => {
  let db: Kysely<TestDB>;
  let seen: Array<string[] | 'unknown'>;
  const plugin = new TableWrites();
  let off: () => void;

  beforeEach(async () => {
    db = new Kysely<TestDB>({ dialect: new SqliteDialect({ database: new SQLite(':memory:') }), plugins: [plugin] });
    await sql`create table cruises (id text primary key, name text)`.execute(db);
    await sql`create table lowerings (id text primary key, cruise text)`.execute(db);
    seen = [];
    off = plugin.on((tables: WrittenTables) => seen.push(tables === 'unknown' ? tables : [...tables].sort()));
  });
  afterEach(async () => {
    off();
    await db.destroy();
  });

  it('names the table of inserts, updates (aliased too) and deletes, inside a transaction as well', async () => {
    await db.insertInto('cruises').values({ id: 'c1', name: 'one' }).execute();
    await db.updateTable('cruises as c').set({ name: 'two' }).where('c.id', '=', 'c1').execute();
    await db.transaction().execute(async (tx) => {
      await tx.insertInto('lowerings').values({ id: 'l1', cruise: 'c1' }).execute();
      await tx.deleteFrom('lowerings').where('id', '=', 'l1').execute();
    });
    expect(seen).toEqual([['cruises'], ['cruises'], ['lowerings'], ['lowerings']]);
  });

  it('says nothing of reads, and reads raw writes by their leading verb', async () => {
    await db.selectFrom('cruises').selectAll().execute();
    await sql`select count(*) from lowerings`.execute(db);
    expect(seen).toEqual([]);
    await sql`INSERT INTO "lowerings"(id, cruise) VALUES ('l2', 'c1')`.execute(db);
    await sql`update cruises set name = ${'x'}`.execute(db);
    await sql`DELETE FROM lowerings`.execute(db);
    expect(seen).toEqual([['lowerings'], ['cruises'], ['lowerings']]);
  });

  it('a raw statement that writes in another shape is a write of unknown tables', async () => {
    await sql`/* tidy up */ delete from lowerings`.execute(db);
    await sql`with gone as (select id from lowerings) delete from cruises where id in (select id from gone)`.execute(
      db,
    );
    expect(seen).toEqual(['unknown', 'unknown']);
  });

  it('a listener removed hears nothing more', async () => {
    off();
    await db.insertInto('cruises').values({ id: 'c3', name: 'three' }).execute();
    expect(seen).toEqual([]);
  });
});
