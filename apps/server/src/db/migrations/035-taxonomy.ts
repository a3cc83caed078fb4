import { sql, type ColumnDefinitionBuilder, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * The ship's offline taxonomy (docs/taxa.md): WoRMS taxa keyed by their AphiaID, their vernacular
 * names, the vessel's mapping of legacy option values to a taxon, and the history of imports.
 *
 * `name_key` columns hold the name folded for search (lower case, accents removed) by the
 * repository, so prefix search is a range on a plain index on both engines. On PostgreSQL they are
 * `COLLATE "C"` (byte order, as SQLite's BINARY): the range then holds exactly the names that
 * begin with the typed text whatever the database's locale; pg_trgm GIN indexes (where the
 * extension is installed, as the event search needs) serve substring search there. SQLite scans
 * for a substring: 100,000 short keys take a few milliseconds.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const key = (c: ColumnDefinitionBuilder) =>
    dialect === 'postgres' ? c.notNull().modifyEnd(sql`COLLATE "C"`) : c.notNull();

  await db.schema
    .createTable('taxa')
    .addColumn('aphia_id', 'integer', (c) => c.primaryKey())
    .addColumn('scientific_name', 'text', (c) => c.notNull())
    .addColumn('name_key', 'text', key)
    .addColumn('authority', 'text')
    .addColumn('taxon_rank', 'text')
    .addColumn('status', 'text')
    .addColumn('accepted_aphia_id', 'integer')
    .addColumn('parent_aphia_id', 'integer')
    .addColumn('is_marine', 'integer')
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('taxa_name_key_idx').on('taxa').columns(['name_key']).execute();
  await db.schema.createIndex('taxa_parent_idx').on('taxa').columns(['parent_aphia_id']).execute();
  await db.schema.createIndex('taxa_accepted_idx').on('taxa').columns(['accepted_aphia_id']).execute();

  await db.schema
    .createTable('taxon_vernaculars')
    .addColumn('aphia_id', 'integer', (c) => c.notNull())
    .addColumn('vernacular_name', 'text', (c) => c.notNull())
    .addColumn('language', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('name_key', 'text', key)
    .addPrimaryKeyConstraint('taxon_vernaculars_pk', ['aphia_id', 'vernacular_name', 'language'])
    .execute();
  await db.schema.createIndex('taxon_vernaculars_key_idx').on('taxon_vernaculars').columns(['name_key']).execute();

  // A legacy option value (`Brittle star` in option `morphotype`, or in template `CORAL`) → a
  // taxon and a qualifier. `scope_key` and `value_key` are the lower-cased, trimmed scope and value.
  await db.schema
    .createTable('taxon_legacy_mappings')
    .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('scope_key', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('value_key', 'text', (c) => c.notNull())
    .addColumn('aphia_id', 'integer', (c) => c.notNull())
    .addColumn('qualifier', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_by', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('taxon_legacy_mappings_key')
    .on('taxon_legacy_mappings')
    .columns(['scope_key', 'value_key'])
    .unique()
    .execute();

  // One row per import: what was read (kind, version label), by whom, and how it ended.
  await db.schema
    .createTable('taxon_imports')
    .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('started_by', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('finished_at', 'bigint')
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('taxa', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('vernaculars', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('message', 'text', (c) => c.notNull().defaultTo(''))
    .execute();

  if (dialect === 'postgres') await trigramIndexes(db);
}

async function trigramIndexes(db: Kysely<unknown>): Promise<void> {
  const found = await sql<{ schema: string }>`
    SELECT n.nspname AS schema FROM pg_extension x JOIN pg_namespace n ON n.oid = x.extnamespace WHERE x.extname = 'pg_trgm'`.execute(
    db,
  );
  const trgmSchema = found.rows[0]?.schema;
  if (!trgmSchema) return; // No pg_trgm: substring search scans, as on SQLite.
  const ops = sql.raw(`"${trgmSchema.replace(/"/g, '""')}".gin_trgm_ops`);
  await sql`CREATE INDEX taxa_name_key_trgm_idx ON taxa USING gin (name_key ${ops})`.execute(db);
  await sql`CREATE INDEX taxon_vernaculars_key_trgm_idx ON taxon_vernaculars USING gin (name_key ${ops})`.execute(db);
}
