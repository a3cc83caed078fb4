import { afterEach, describe, expect, it } from 'vitest';
import { sql, type Kysely } from 'kysely';
import { migrateToLatest } from '../../db/database.js';
import { migrationsFor } from '../../db/migrations/index.js';
import { engines, openTestDatabase } from '../../../test/test-app.js';
import { framegrabData, insertAux, insertEvents, navData } from '../../../test/table-fixtures.js';
import { auxTextCondition, type AuxTextTerms } from './aux-data-search.js';
import { EventAuxDataRepository } from './event-aux-data.repository.js';

/**
 * The aux-data fulltext index (migration 004): built from records stored before it, kept in step
 * by the triggers, and used by the planner. API behaviour is in event-aux-data.routes.test.ts.
 */
describe.each(engines)('aux-data search index on %s', (engine) => {
  let drop: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await drop?.();
    drop = undefined;
  });

  const open = async () => {
    const test = await openTestDatabase(engine);
    drop = test.drop;
    return test.database;
  };

  it('indexes the records stored before the migration, and follows later writes', async () => {
    const database = await open();
    const migrations = migrationsFor(database.dialect);
    if (database.schema) await database.db.schema.createSchema(database.schema).ifNotExists().execute();
    for (const name of ['001-initial', '002-event-search', '003-realtime-outbox'])
      await database.db.transaction().execute((trx) => migrations[name]!.up(trx as unknown as Kysely<unknown>));
    const [one, two] = await insertEvents(database.db, [
      { ts: 1000, event_value: 'FISH' },
      { ts: 2000, event_value: 'ASNAP' },
    ]);
    const [grab] = await insertAux(database.db, [framegrabData(one!, 7), navData(two!, 1)], { owners: false });
    await database.db
      .transaction()
      .execute((trx) => migrations['004-aux-data-search']!.up(trx as unknown as Kysely<unknown>));

    const repo = new EventAuxDataRepository(database.db);
    const find = async (terms: AuxTextTerms) =>
      (
        await repo.chunk({
          sources: null,
          offset: 0,
          limit: 100,
          text: auxTextCondition(database.dialect, terms, sql.ref('event_aux_data.id')),
        })
      ).map((r) => r.data_source);
    expect(await find({ include: ['MAIN_7'], exclude: [] })).toEqual(['framegrabber']);
    expect(await find({ include: ['heading'], exclude: [] })).toEqual(['vehicleRealtimeNavData']);
    expect(await find({ include: [], exclude: ['camera'] })).toEqual(['vehicleRealtimeNavData']);
    // A NUL in a term is searched without the index (FTS5 stops reading its query there: a 500).
    expect(await find({ include: ['head\u0000ing'], exclude: [] })).toEqual([]);
    expect(await find({ include: ['heading', 'x\u0000y'], exclude: [] })).toEqual(['vehicleRealtimeNavData']);

    await database.db
      .updateTable('event_aux_data')
      .set({ data_array: JSON.stringify([{ data_name: 'camera_name', data_value: 'Sci Cam' }]) })
      .where('id', '=', grab!)
      .execute();
    expect(await find({ include: ['main_7'], exclude: [] })).toEqual([]);
    expect(await find({ include: ['sci cam'], exclude: [] })).toEqual(['framegrabber']);
    await database.db.deleteFrom('events').where('id', '=', one!).execute();
    expect(await find({ include: ['sci cam'], exclude: [] })).toEqual([]);
    if (database.dialect === 'sqlite') {
      await sql`INSERT INTO event_aux_fts(event_aux_fts) VALUES ('integrity-check')`.execute(database.db);
      const left = await sql<{ n: number }>`SELECT count(*) AS n FROM event_aux_search`.execute(database.db);
      expect(Number(left.rows[0]!.n)).toBe(1);
    }
  });

  it('plans a fulltext list on the trigram index', async () => {
    const database = await open();
    await migrateToLatest(database);
    const n = 3000;
    const eventIds = await insertEvents(
      database.db,
      Array.from({ length: n }, (_, i) => ({ ts: 1000 + i * 1000, event_value: 'ASNAP' })),
    );
    await insertAux(
      database.db,
      eventIds.map((id, i) => (i % 2 ? navData(id, i) : framegrabData(id, i))),
    );
    if (database.dialect === 'postgres')
      await sql`ANALYZE events, event_aux_data, event_aux_search`.execute(database.db);
    await database.db.transaction().execute(async (trx) => {
      // A small table makes PostgreSQL prefer a sequential scan; the question is whether the index can serve.
      if (database.dialect === 'postgres') await sql`SET LOCAL enable_seqscan = off`.execute(trx);
      const repo = new EventAuxDataRepository(trx);
      const text = auxTextCondition(
        database.dialect,
        { include: ['main_1234.jpg'], exclude: [] },
        sql.ref('event_aux_data.id'),
      );
      const plan = await repo.explainChunk({ sources: null, offset: 0, limit: 100, text }, database.dialect);
      if (database.dialect === 'sqlite') {
        expect(plan).toMatch(/SCAN event_aux_fts VIRTUAL TABLE INDEX/);
        expect(plan).not.toMatch(/SCAN event_aux_data(?! USING)/);
      } else {
        expect(plan).toMatch(/event_aux_search_doc_trgm_idx/);
      }
      const rows = await repo.chunk({ sources: null, offset: 0, limit: 100, text });
      expect(rows.map((r) => r.event_id)).toEqual([eventIds[1234]]);
    });
  }, 120_000);
});
