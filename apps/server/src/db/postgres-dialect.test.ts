import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openDatabase } from './database.js';

const url = process.env.TEST_DATABASE_URL;

describe.skipIf(!url)('PostgreSQL introspection beside other connections’ DDL', () => {
  it('lists the tables while another connection creates and drops schemas of tables', async () => {
    const other = openDatabase({ url: url!, poolSize: 1 });
    const database = openDatabase({ url: url!, poolSize: 2 });
    const prefix = `t_ddl_${process.pid}_${Date.now().toString(36)}`;
    let churning = true;
    const churn = (async () => {
      for (let i = 0; churning; i++) {
        const schema = `${prefix}_${i}`;
        await sql`CREATE SCHEMA ${sql.id(schema)}`.execute(other.db);
        await sql`CREATE TABLE ${sql.id(schema, 'a')} (id serial PRIMARY KEY, v text)`.execute(other.db);
        await sql`ALTER TABLE ${sql.id(schema, 'a')} RENAME COLUMN v TO w`.execute(other.db);
        await sql`DROP SCHEMA ${sql.id(schema)} CASCADE`.execute(other.db);
      }
    })();
    try {
      // What the migrator asks before it takes its lock, asked while the schemas come and go.
      for (let i = 0; i < 150; i++) {
        const tables = await database.db.introspection.getTables({ withInternalKyselyTables: true });
        expect(Array.isArray(tables)).toBe(true);
      }
    } finally {
      churning = false;
      await churn;
      await database.close();
      await other.close();
    }
  }, 60_000);
});
