import { afterEach, describe, expect, it } from 'vitest';
import { Migrator, type MigrationProvider } from 'kysely';
import { engines, openTestDatabase } from '../../../test/test-app.js';
import { insertAux, insertEvents, type AuxFixture } from '../../../test/table-fixtures.js';
import type { Database } from '../database.js';
import { migrationsFor } from './index.js';

/**
 * Migration 022 stores the demo's frame-grab paths relative to the images folder, as the Sealog
 * inserters do, and changes nothing a vessel stored itself.
 */
describe.each(engines)('migration 022 (relative demo frame grabs) on %s', (engine) => {
  const drops: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const drop of drops.splice(0)) await drop();
  });

  const migrate = async (database: Database, to?: string) => {
    const provider: MigrationProvider = { getMigrations: async () => migrationsFor(database.dialect) };
    const migrator = new Migrator({
      db: database.db,
      provider,
      ...(database.schema ? { migrationTableSchema: database.schema } : {}),
    });
    const { error } = to ? await migrator.migrateTo(to) : await migrator.migrateToLatest();
    expect(error).toBeUndefined();
  };

  it('makes the demo loader’s absolute paths relative and leaves every other record as it was', async () => {
    const test = await openTestDatabase(engine);
    drops.push(test.drop);
    const { database } = test;
    if (database.schema) await database.db.schema.createSchema(database.schema).ifNotExists().execute();
    await migrate(database, '021-checklists');
    // One record per (event, source): four events.
    const [event, second, third, fourth] = (await insertEvents(
      database.db,
      [1000, 2000, 3000, 4000].map((ts) => ({ ts, event_value: 'FRAMEGRAB' })),
    )) as [string, string, string, string];
    const grabs = 'vehicleRealtimeFramegrabberData';
    const demo: AuxFixture = {
      event_id: event,
      data_source: grabs,
      data_array: [
        { data_name: 'camera_name', data_value: 'Main Cam' },
        { data_name: 'filename', data_value: '/var/lib/bathylog/files/images/S0492_MainCam_20230314_221539479.jpg' },
        { data_name: 'camera_name', data_value: 'Science Cam' },
        {
          data_name: 'filename',
          data_value: '/var/lib/bathylog/files/images/S0492_ScienceCam_20230314_221539479.jpg',
        },
      ],
    };
    // A vessel's own inserter, another source and a value already relative: untouched.
    const vessel: AuxFixture = {
      event_id: fourth,
      data_source: 'vesselFramegrabs',
      data_array: [{ data_name: 'filename', data_value: '/data/files/images/S0492_MainCam_20230314_221539479.jpg' }],
    };
    const own: AuxFixture = {
      event_id: second,
      data_source: grabs,
      data_array: [{ data_name: 'filename', data_value: '/data/sealog-files/images/SuBastian/20230314_2215.jpg' }],
    };
    const relative: AuxFixture = {
      event_id: third,
      data_source: grabs,
      data_array: [{ data_name: 'filename', data_value: 'S0493_MainCam_20230315_101010000.jpg' }],
    };
    const ids = await insertAux(database.db, [demo, vessel, own, relative], { owners: false });
    const stored = async () => {
      const rows = await database.db.selectFrom('event_aux_data').select(['id', 'data_array']).execute();
      const byId = new Map(rows.map((r) => [r.id, JSON.parse(r.data_array) as unknown]));
      return ids.map((id) => byId.get(id));
    };
    const before = await stored();

    await migrate(database);
    const after = await stored();
    expect(after[0]).toEqual([
      { data_name: 'camera_name', data_value: 'Main Cam' },
      { data_name: 'filename', data_value: 'S0492_MainCam_20230314_221539479.jpg' },
      { data_name: 'camera_name', data_value: 'Science Cam' },
      { data_name: 'filename', data_value: 'S0492_ScienceCam_20230314_221539479.jpg' },
    ]);
    expect(after.slice(1)).toEqual(before.slice(1));
  });
});
