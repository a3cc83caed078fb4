import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { engines, openTestDatabase } from '../../test/test-app.js';
import { migrateToLatest, type Database } from './database.js';
import { UsersRepository } from '../modules/users/users.repository.js';

const tables = [
  'users',
  'cruises',
  'lowerings',
  'events',
  'event_aux_data',
  'event_templates',
  'custom_vars',
  'audit_log',
  'device_keys',
] as const;

function user(id: string, username: string, loginToken = `tok${id.slice(-17)}`) {
  return {
    id,
    username,
    fullname: username,
    email: `${username}@example.org`,
    password: 'x',
    roles: '["event_logger"]',
    system_user: 0,
    disabled: 0,
    last_login: 0,
    login_token: loginToken,
    reset_password_token: null,
    reset_password_expires: null,
    sessions_valid_after: 0,
    api_tokens_valid_after: 0,
  };
}

function event(id: string, ts: number, extra: Partial<{ event_value: string; event_options: string }> = {}) {
  return { id, ts, event_author: 'tester', event_value: 'NOTE', event_options: '[]', event_free_text: '', ...extra };
}

describe.each(engines)('storage on %s', (engine) => {
  let database: Database;
  let drop: () => Promise<void>;

  beforeEach(async () => {
    ({ database, drop } = await openTestDatabase(engine));
    await migrateToLatest(database);
  });
  afterEach(async () => {
    await drop();
  });

  it('creates every table, and migrating again changes nothing and keeps the data', async () => {
    const db = database.db;
    for (const table of tables) {
      const row = await db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(row.n), table).toBe(0);
    }
    await db
      .insertInto('custom_vars')
      .values({ id: '59810167212b348aed7fa9f5', custom_var_name: 'asnapStatus', custom_var_value: 'Off' })
      .execute();
    await migrateToLatest(database);
    await migrateToLatest(database);
    const vars = await db.selectFrom('custom_vars').selectAll().execute();
    expect(vars).toEqual([{ id: '59810167212b348aed7fa9f5', custom_var_name: 'asnapStatus', custom_var_value: 'Off' }]);
  });

  it('round-trips timestamps as epoch milliseconds (numbers) and range-queries them', async () => {
    const db = database.db;
    const times = [Date.UTC(2023, 2, 14, 22, 15, 39, 479), 0, -86_400_000, Date.UTC(2200, 0, 1, 0, 0, 0, 1)];
    await db
      .insertInto('events')
      .values(times.map((ts, i) => event(`6410f20b6594c9977675e4${String(i).padStart(2, '0')}`, ts)))
      .execute();
    const rows = await db.selectFrom('events').select(['id', 'ts']).orderBy('ts').execute();
    expect(rows.map((r) => r.ts)).toEqual([...times].sort((a, b) => a - b));
    for (const r of rows) expect(typeof r.ts).toBe('number');
    const inRange = await db
      .selectFrom('events')
      .select('ts')
      .where('ts', '>=', Date.UTC(2023, 0, 1))
      .where('ts', '<=', Date.UTC(2024, 0, 1))
      .execute();
    expect(inRange).toEqual([{ ts: times[0] }]);

    await db
      .insertInto('users')
      .values({
        ...user('5981f167212b348aed7fa9f5', 'admin'),
        last_login: times[0]!,
        reset_password_expires: times[3]!,
      })
      .execute();
    const u = await db.selectFrom('users').select(['last_login', 'reset_password_expires']).executeTakeFirstOrThrow();
    expect(u).toEqual({ last_login: times[0], reset_password_expires: times[3] });
  });

  it('round-trips JSON text columns byte for byte', async () => {
    const options = [
      { event_option_name: 'comment', event_option_value: 'Ünïcödé — "quoted", 🐙, line\nbreak' },
      { event_option_name: 'nested', event_option_value: JSON.stringify({ a: [1, 2, { b: null }] }) },
    ];
    const meta = {
      milestones: { lowering_on_bottom: '2023-03-14T23:45:16.031Z', lowering_aborted: null },
      stats: { max_depth: 2011.54, bounding_box: [23.551409, -45.133938, 23.547893, -45.150482] },
    };
    const db = database.db;
    await db
      .insertInto('events')
      .values(event('6410f20b6594c9977675e47b', 1, { event_options: JSON.stringify(options) }))
      .execute();
    await db
      .insertInto('lowerings')
      .values({
        id: '6410e4e06594c9977675e47a',
        lowering_id: 'S0492',
        start_ts: 1,
        stop_ts: 2,
        lowering_location: 'Kane FZ',
        lowering_tags: '["a","b"]',
        lowering_hidden: 0,
        lowering_access_list: '[]',
        lowering_additional_meta: JSON.stringify(meta),
      })
      .execute();
    const e = await db.selectFrom('events').select('event_options').executeTakeFirstOrThrow();
    expect(JSON.parse(e.event_options)).toEqual(options);
    const l = await db.selectFrom('lowerings').selectAll().executeTakeFirstOrThrow();
    expect(JSON.parse(l.lowering_additional_meta)).toEqual(meta);
    expect(JSON.parse(l.lowering_tags)).toEqual(['a', 'b']);
  });

  it('applies column defaults', async () => {
    const db = database.db;
    await db
      .insertInto('cruises')
      .values({ id: '6400d0e5c476e18a7cfc4ed1', cruise_id: 'FKt230303', start_ts: 1, stop_ts: 2 } as never)
      .execute();
    const c = await db.selectFrom('cruises').selectAll().executeTakeFirstOrThrow();
    expect(c).toMatchObject({
      cruise_location: '',
      cruise_tags: '[]',
      cruise_hidden: 0,
      cruise_access_list: '[]',
      cruise_additional_meta: '{}',
    });
  });

  it('keeps usernames and login tokens unique', async () => {
    const db = database.db;
    await db
      .insertInto('users')
      .values(user('5981f167212b348aed7fa9f5', 'alice', 'a'.repeat(20)))
      .execute();
    await expect(
      db
        .insertInto('users')
        .values(user('5981f167212b348aed7fa9f6', 'alice', 'b'.repeat(20)))
        .execute(),
    ).rejects.toThrow();
    await expect(
      db
        .insertInto('users')
        .values(user('5981f167212b348aed7fa9f7', 'bob', 'a'.repeat(20)))
        .execute(),
    ).rejects.toThrow();
    await expect(
      db
        .insertInto('users')
        .values(user('5981f167212b348aed7fa9f5', 'carol', 'c'.repeat(20)))
        .execute(),
    ).rejects.toThrow();
    const names = await db.selectFrom('users').select('username').execute();
    expect(names).toEqual([{ username: 'alice' }]);
  });

  it('deleting an event deletes its aux data; aux data needs an existing event', async () => {
    const db = database.db;
    await db
      .insertInto('events')
      .values([event('6410f20b6594c9977675e47b', 1), event('6410f20b6594c9977675e47c', 2)])
      .execute();
    await db
      .insertInto('event_aux_data')
      .values([
        {
          id: '6410f20bafd99123bd439457',
          event_id: '6410f20b6594c9977675e47b',
          data_source: 'vehicleRealtimeNavData',
          data_array: '[]',
        },
        {
          id: '6410f20bafd99123bd439458',
          event_id: '6410f20b6594c9977675e47b',
          data_source: 'framegrabber',
          data_array: '[]',
        },
        {
          id: '6410f20bafd99123bd439459',
          event_id: '6410f20b6594c9977675e47c',
          data_source: 'framegrabber',
          data_array: '[]',
        },
      ])
      .execute();
    await db.deleteFrom('events').where('id', '=', '6410f20b6594c9977675e47b').execute();
    const left = await db.selectFrom('event_aux_data').select('id').execute();
    expect(left).toEqual([{ id: '6410f20bafd99123bd439459' }]);
    await expect(
      db
        .insertInto('event_aux_data')
        .values({
          id: '6410f20bafd99123bd43945a',
          event_id: '6410f20b6594c9977675e47b',
          data_source: 'x',
          data_array: '[]',
        })
        .execute(),
    ).rejects.toThrow();
  });

  it('allows one aux record per event and data source', async () => {
    const db = database.db;
    await db.insertInto('events').values(event('6410f20b6594c9977675e47b', 1)).execute();
    const aux = { event_id: '6410f20b6594c9977675e47b', data_source: 'vehicleRealtimeNavData', data_array: '[]' };
    await db
      .insertInto('event_aux_data')
      .values({ id: '6410f20bafd99123bd439457', ...aux })
      .execute();
    await expect(
      db
        .insertInto('event_aux_data')
        .values({ id: '6410f20bafd99123bd439458', ...aux })
        .execute(),
    ).rejects.toThrow();
  });

  it('rolls a failed transaction back completely', async () => {
    const db = database.db;
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.insertInto('events').values(event('6410f20b6594c9977675e47b', 1)).execute();
        await trx.insertInto('events').values(event('6410f20b6594c9977675e47b', 2)).execute(); // duplicate id
      }),
    ).rejects.toThrow();
    const rows = await db.selectFrom('events').select('id').execute();
    expect(rows).toEqual([]);
  });

  it('insert-if-absent (ON CONFLICT DO NOTHING) works on this engine', async () => {
    const db = database.db;
    await db.insertInto('events').values(event('6410f20b6594c9977675e47b', 1)).execute();
    const result = await db
      .insertInto('events')
      .values([event('6410f20b6594c9977675e47b', 99), event('6410f20b6594c9977675e47c', 2)])
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst();
    expect(Number(result.numInsertedOrUpdatedRows)).toBe(1);
    const rows = await db.selectFrom('events').select(['id', 'ts']).orderBy('id').execute();
    expect(rows).toEqual([
      { id: '6410f20b6594c9977675e47b', ts: 1 },
      { id: '6410f20b6594c9977675e47c', ts: 2 },
    ]);
  });

  it('the users repository maps flags, roles and nullable fields both ways', async () => {
    const repo = new UsersRepository(database.db);
    await repo.insert({
      id: '5981f167212b348aed7fc9f5',
      username: 'pi',
      fullname: 'Primary Investigator',
      email: 'pi@notarealserver.com',
      password: '$2a$10$hash',
      roles: ['cruise_manager', 'event_logger'],
      system_user: true,
      disabled: true,
      last_login: 1678832139479,
      login_token: 'x'.repeat(20),
      reset_password_token: null,
      reset_password_expires: null,
      sessions_valid_after: 1678832140,
      api_tokens_valid_after: 0,
    });
    expect(await repo.findByUsername('pi')).toEqual({
      id: '5981f167212b348aed7fc9f5',
      username: 'pi',
      fullname: 'Primary Investigator',
      email: 'pi@notarealserver.com',
      password: '$2a$10$hash',
      roles: ['cruise_manager', 'event_logger'],
      system_user: true,
      disabled: true,
      last_login: 1678832139479,
      login_token: 'x'.repeat(20),
      login_token_sealed: null,
      login_token_at: 0,
      reset_password_token: null,
      reset_password_expires: null,
      sessions_valid_after: 1678832140,
      api_tokens_valid_after: 0,
    });
    await repo.update('5981f167212b348aed7fc9f5', {
      disabled: false,
      reset_password_token: 'f'.repeat(40),
      reset_password_expires: 1700000000000,
    });
    const after = await repo.findByResetToken('f'.repeat(40));
    expect(after).toMatchObject({ disabled: false, system_user: true, reset_password_expires: 1700000000000 });
    expect(await repo.count()).toBe(1);
    expect(await repo.delete('5981f167212b348aed7fc9f5')).toBe(1);
    expect(await repo.findById('5981f167212b348aed7fc9f5')).toBeUndefined();
  });

  // The planner check is SQLite's; PostgreSQL rightly prefers a sequential scan on a tiny table.
  it.runIf(engine === 'sqlite')('uses the index on event time for time-range queries', async () => {
    const plan = await sql<{
      detail: string;
    }>`explain query plan select id from events where ts >= 1 and ts <= 2 order by ts`.execute(database.db);
    expect(plan.rows.map((r) => r.detail).join(' ')).toMatch(/events_ts_value_idx/);
  });

  it.runIf(engine === 'sqlite')(
    "reads the audit trail's user and record filters from their indexes, newest first",
    async () => {
      const detail = async (where: string) =>
        (
          await sql<{ detail: string }>`explain query plan ${sql.raw(
            `select * from audit_log where ${where} order by seq desc limit 25`,
          )}`.execute(database.db)
        ).rows
          .map((r) => r.detail)
          .join(' ');
      const byActor = await detail(`actor_name = 'pi'`);
      expect(byActor).toMatch(/audit_log_actor_seq_idx/);
      expect(byActor).not.toMatch(/TEMP B-TREE/);
      const byRecord = await detail(`record_id = '5981f167212b348aed7fc9f5'`);
      expect(byRecord).toMatch(/audit_log_record_seq_idx/);
      expect(byRecord).not.toMatch(/TEMP B-TREE/);
    },
  );
});
