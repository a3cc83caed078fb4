import { afterEach, describe, expect, it } from 'vitest';
import { Migrator, sql, type MigrationProvider } from 'kysely';
import { newObjectId } from '@bathylog/shared';
import { engines, openTestDatabase } from '../../../test/test-app.js';
import { insertAux, insertEvents, navData, framegrabData } from '../../../test/table-fixtures.js';
import type { Database } from '../database.js';
import { migrationsFor } from './index.js';

/**
 * Migration 013 writes the search projection and CSV shape links of inserted events and aux
 * records per statement instead of per row (PostgreSQL). The same writes on a database at 012 (row
 * triggers) and one at 013 must leave the same derived rows: shapes new to the database, shapes
 * repeated within one statement, known shapes, no options, aux records without data, and the
 * edits and deletes after them.
 */
describe.each(engines)('set-based insert triggers on %s', (engine) => {
  const drops: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const drop of drops.splice(0)) await drop();
  });

  const openAt = async (migration: string): Promise<Database> => {
    const test = await openTestDatabase(engine);
    drops.push(test.drop);
    const { database } = test;
    if (database.schema) await database.db.schema.createSchema(database.schema).ifNotExists().execute();
    const provider: MigrationProvider = { getMigrations: async () => migrationsFor(database.dialect) };
    const migrator = new Migrator({
      db: database.db,
      provider,
      ...(database.schema ? { migrationTableSchema: database.schema } : {}),
    });
    const { error } = await migrator.migrateTo(migration);
    expect(error).toBeUndefined();
    return database;
  };

  /** The rows the triggers derive, in a form that does not depend on shape ids or search keys. */
  const derived = async (database: Database) => {
    const { db } = database;
    const shapes = await sql<{ event_id: string; record_id: string; ts: number; shape: string }>`
      SELECT l.event_id, l.record_id, l.ts, s.shape FROM event_csv_shapes l JOIN csv_shapes s ON s.id = l.shape_id
      ORDER BY l.event_id, l.record_id`.execute(db);
    const search =
      database.dialect === 'postgres'
        ? await sql`SELECT event_id, ts, event_value, doc FROM event_search ORDER BY event_id`.execute(db)
        : await sql`SELECT event_id, event_value, event_free_text, option_values, event_author FROM event_search
            ORDER BY event_id`.execute(db);
    const auxSearch =
      database.dialect === 'postgres'
        ? await sql`SELECT aux_id, doc FROM event_aux_search ORDER BY aux_id`.execute(db)
        : { rows: [] };
    const storedShapes = await sql<{ shape: string }>`SELECT shape FROM csv_shapes ORDER BY shape`.execute(db);
    return {
      shapes: shapes.rows,
      search: search.rows as Array<Record<string, unknown>>,
      auxSearch: auxSearch.rows,
      storedShapes: storedShapes.rows.map((r) => r.shape),
    };
  };

  /** The same writes, with the same ids, on any database. */
  const ids = Array.from({ length: 7 }, () => newObjectId());
  const auxIds = Array.from({ length: 6 }, () => newObjectId());
  const write = async (database: Database) => {
    const { db } = database;
    const sample = [
      { event_option_name: 'type', event_option_value: 'Octopus' },
      { event_option_name: 'count', event_option_value: '2-10' },
    ];
    // One statement: a shape new to the database twice, another new one, no options, a known one after.
    await insertEvents(db, [
      { id: ids[0], ts: 1000, event_value: 'OBSERVATION', event_options: sample, event_free_text: 'Near the vent' },
      { id: ids[1], ts: 2000, event_value: 'OBSERVATION', event_options: sample, event_author: 'Pilot' },
      {
        id: ids[2],
        ts: 2000,
        event_value: 'SAMPLE',
        event_options: [{ event_option_name: 'jar', event_option_value: 'J3' }],
      },
      { id: ids[3], ts: 3000, event_value: 'ASNAP' },
    ]);
    await insertEvents(db, [
      { id: ids[4], ts: 4000, event_value: 'OBSERVATION', event_options: sample.slice().reverse() },
      {
        id: ids[5],
        ts: 5000,
        event_value: 'SAMPLE',
        event_options: [{ event_option_name: 'jar', event_option_value: 'J4' }],
      },
      { id: ids[6], ts: 6000, event_value: 'FISH', event_free_text: 'ÉCHO' },
    ]);
    // One statement: nav twice (a new shape), frame grabs, a record without data; then a known shape.
    await insertAux(
      db,
      [
        { ...navData(ids[0]!, 1), id: auxIds[0] },
        { ...navData(ids[1]!, 2), id: auxIds[1] },
        { ...framegrabData(ids[1]!, 2), id: auxIds[2] },
        { id: auxIds[3], event_id: ids[2]!, data_source: 'empty', data_array: [] },
      ],
      { owners: false },
    );
    await insertAux(
      db,
      [
        { ...navData(ids[4]!, 3), id: auxIds[4] },
        { id: auxIds[5], event_id: ids[6]!, data_source: 'ctd', data_array: [{ data_name: 'temp', data_value: 4.2 }] },
      ],
      { owners: false },
    );
  };
  const edit = async (database: Database) => {
    const { db } = database;
    await db
      .updateTable('events')
      .set({ event_options: '[]', event_free_text: 'Gone' })
      .where('id', '=', ids[0]!)
      .execute();
    await db.updateTable('events').set({ ts: 7000 }).where('id', '=', ids[1]!).execute();
    await db
      .updateTable('event_aux_data')
      .set({ data_array: JSON.stringify([{ data_name: 'salinity', data_value: '35' }]) })
      .where('id', '=', auxIds[5]!)
      .execute();
    await db.deleteFrom('event_aux_data').where('id', '=', auxIds[2]!).execute();
    await db.deleteFrom('events').where('id', '=', ids[4]!).execute();
  };

  it('derives the same search rows and CSV shape links as the row triggers did', async () => {
    const before = await openAt('012-fulltext-without-asnap');
    const after = await openAt('013-set-based-insert-triggers');
    await write(before);
    await write(after);
    const inserted = await derived(after);
    expect(inserted).toEqual(await derived(before));
    // What a reader of the export and the search relies on, spelt out.
    expect(inserted.storedShapes).toHaveLength(6); // 2 option shapes + jar, nav, frame grab, ctd
    expect(inserted.shapes.filter((l) => l.record_id === '')).toHaveLength(5);
    expect(inserted.shapes.filter((l) => l.record_id !== '')).toHaveLength(5);
    expect(inserted.shapes.find((l) => l.record_id === auxIds[4])?.ts).toBe(4000);
    if (engine === 'postgres') {
      const doc = inserted.search.find((r) => r.event_id === ids[0])?.doc;
      expect(doc).toBe('observation\u001fnear the vent\u001foctopus\n2-10\u001ftester');
      expect(inserted.auxSearch).toHaveLength(6);
    }

    await edit(before);
    await edit(after);
    const edited = await derived(after);
    expect(edited).toEqual(await derived(before));
    expect(edited.shapes.some((l) => l.event_id === ids[0] && l.record_id === '')).toBe(false);
    expect(edited.shapes.find((l) => l.event_id === ids[1] && l.record_id === auxIds[1])?.ts).toBe(7000);
    expect(edited.shapes.some((l) => l.event_id === ids[4])).toBe(false);
  });
});
