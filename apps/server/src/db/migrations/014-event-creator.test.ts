import { afterEach, describe, expect, it } from 'vitest';
import { Migrator, type MigrationProvider } from 'kysely';
import { newObjectId } from '@bathylog/shared';
import { engines, openTestDatabase } from '../../../test/test-app.js';
import { insertEvents } from '../../../test/table-fixtures.js';
import type { Database } from '../database.js';
import { migrationsFor } from './index.js';

/**
 * Migration 014 records who created each stored event: the user whose username its author label
 * is, or nobody (null) when no user has that name.
 */
describe.each(engines)('migration 014 (event creator) on %s', (engine) => {
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

  it('gives stored events the user named by their author label, else nobody', async () => {
    const test = await openTestDatabase(engine);
    drops.push(test.drop);
    const { database } = test;
    if (database.schema) await database.db.schema.createSchema(database.schema).ifNotExists().execute();
    await migrate(database, '013-set-based-insert-triggers');
    const alice = newObjectId();
    await database.db
      .insertInto('users')
      .values({
        id: alice,
        username: 'alice',
        fullname: 'Alice',
        email: 'alice@example.org',
        password: '',
        roles: '["event_logger"]',
        system_user: 0,
        disabled: 0,
        last_login: 0,
        login_token: '',
        reset_password_token: null,
        reset_password_expires: null,
        sessions_valid_after: 0,
        api_tokens_valid_after: 0,
      })
      .execute();
    const [byAlice, byScript, byCase] = await insertEvents(database.db, [
      { ts: 1000, event_value: 'FISH', event_author: 'alice' },
      { ts: 2000, event_value: 'FISH', event_author: 'sealog-bot' },
      { ts: 3000, event_value: 'FISH', event_author: 'Alice' },
    ]);
    await migrate(database);
    const rows = await database.db.selectFrom('events').select(['id', 'created_by']).orderBy('ts').execute();
    expect(rows).toEqual([
      { id: byAlice, created_by: alice },
      { id: byScript, created_by: null },
      { id: byCase, created_by: null },
    ]);
  });
});
