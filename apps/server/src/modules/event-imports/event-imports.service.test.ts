import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newObjectId, type EventImportProgress } from '@bathylog/shared';
import { engines, openTestDatabase } from '../../../test/test-app.js';
import { migrateToLatest, type Database } from '../../db/database.js';
import { EventSearch } from '../events/event-search.js';
import { buildEventFilter, globalWindow } from '../events/event-filter.js';
import { standInCaller } from '../../plugins/auth.js';
import { importEvents } from './event-imports.service.js';

const T0 = Date.UTC(2024, 0, 1);

function exported(n: number, extra: Record<string, unknown> = {}) {
  return {
    id: newObjectId(),
    ts: new Date(T0 + n * 1000).toISOString(),
    event_author: 'pilot',
    event_value: n % 2 ? 'OBSERVATION' : 'ASNAP',
    event_options: n % 2 ? [{ event_option_name: 'Type', event_option_value: `octopus ${n}` }] : [],
    event_free_text: '',
    aux_data: [
      { data_source: 'vehicleRealtimeNavData', data_array: [{ data_name: 'depth', data_value: n, data_uom: 'm' }] },
    ],
    ...extra,
  };
}

async function* stream<T>(items: readonly T[]) {
  for (const item of items) yield item;
}

describe.each(engines)('event import on %s', (engine) => {
  let database: Database;
  let drop: () => Promise<void>;

  beforeEach(async () => {
    ({ database, drop } = await openTestDatabase(engine));
    await migrateToLatest(database);
  });
  afterEach(async () => {
    await drop();
  });

  const count = async (table: 'events' | 'event_aux_data') =>
    Number(
      (
        await database.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('stores every event with its aux data in batches, reports progress, and indexes them for search', async () => {
    const events = Array.from({ length: 25 }, (_, i) => exported(i));
    const progress: EventImportProgress[] = [];
    const result = await importEvents(database, stream(events), { batchSize: 10, onProgress: (p) => progress.push(p) });
    expect(result).toEqual({ read: 25, imported: 25, skipped: 0, failed: 0, errors: [] });
    expect(progress.map((p) => p.imported)).toEqual([10, 20, 25, 25]);
    expect(await count('events')).toBe(25);
    expect(await count('event_aux_data')).toBe(25);
    const stored = await database.db
      .selectFrom('events')
      .selectAll()
      .where('id', '=', events[3]!.id)
      .executeTakeFirstOrThrow();
    expect(Number(stored.ts)).toBe(T0 + 3000);
    // Option names are stored as the API stores them (normalised).
    expect(JSON.parse(stored.event_options)).toEqual([{ event_option_name: 'type', event_option_value: 'octopus 3' }]);
    const search = new EventSearch(database.db, database.dialect);
    const hits = await search.count(
      await search.resolve(buildEventFilter({ fulltext: ['octopus 1'] }, globalWindow(), 'substring')),
    );
    // octopus 1, 11, 13, 15, 17, 19
    expect(hits).toBe(6);
  });

  it('importing the same events again changes nothing; invalid events are refused alone with their position', async () => {
    const events = Array.from({ length: 6 }, (_, i) => exported(i));
    await importEvents(database, stream(events));
    const again = await importEvents(
      database,
      stream([
        ...events,
        { ...exported(7), ts: 'yesterday' },
        { ...exported(8), event_value: '' },
        exported(9),
        {
          ...exported(10),
          aux_data: [
            { data_source: 'nav', data_array: [] },
            { data_source: 'nav', data_array: [] },
          ],
        },
      ]),
      { batchSize: 4 },
    );
    expect(again.read).toBe(10);
    expect(again.imported).toBe(1);
    expect(again.skipped).toBe(6);
    expect(again.failed).toBe(3);
    expect(again.errors.map((e) => e.index)).toEqual([6, 7, 9]);
    expect(again.errors[0]!.message).toContain('ts');
    expect(again.errors[2]!.message).toContain('data_source twice');
    expect(await count('events')).toBe(7);
    expect(await count('event_aux_data')).toBe(7);
  });

  it('records one audit row for the import', async () => {
    await importEvents(database, stream([exported(1), exported(2)]));
    const audit = await database.db.selectFrom('audit_log').selectAll().where('action', '=', 'import').execute();
    expect(audit).toHaveLength(1);
    expect(JSON.parse(audit[0]!.new_value!)).toEqual({ events: 2, skipped: 0, failed: 0 });
  });

  it('records the importing caller as the creator of the events, whatever author the file names', async () => {
    const importer = standInCaller(
      {
        id: newObjectId(),
        username: 'importer',
        fullname: 'Importer',
        email: '',
        roles: ['event_logger'],
        system_user: false,
        last_login: 0,
      },
      { iat: 0, key: null },
    );
    await importEvents(database, stream([exported(1)]), { actor: importer });
    await importEvents(database, stream([exported(2)]));
    const rows = await database.db.selectFrom('events').select(['event_author', 'created_by']).orderBy('ts').execute();
    expect(rows.map((r) => r.created_by)).toEqual([importer.user.id, null]);
    expect(rows[0]!.event_author).not.toBe('importer');
  });
});
