import {
  DEFAULT_MIGRATION_LOCK_TABLE,
  DEFAULT_MIGRATION_TABLE,
  PostgresDialect,
  PostgresIntrospector,
  sql,
  type DatabaseIntrospector,
  type DatabaseMetadataOptions,
  type Kysely,
  type SchemaMetadata,
  type TableMetadata,
} from 'kysely';

/**
 * Kysely's PostgreSQL dialect with an introspector that lists tables by name only.
 *
 * The migrator asks the introspector which tables exist before it takes its lock. Kysely's own
 * introspector reads every column of every table in the database and resolves each table by its
 * name (`pg_get_serial_sequence`), so it fails ("schema … does not exist", "column … does not
 * exist") when another connection changes or drops a table in any schema meanwhile: a second
 * server process starting while the first migrates, or parallel test suites that each own a
 * schema. Names and schemas are all the migrator reads, and they come from the catalog in one
 * snapshot. Nothing else in the server introspects.
 */
class TableNamesIntrospector implements DatabaseIntrospector {
  readonly #db: Kysely<unknown>;
  readonly #schemas: PostgresIntrospector;

  constructor(db: Kysely<unknown>) {
    this.#db = db;
    this.#schemas = new PostgresIntrospector(db);
  }

  getSchemas(): Promise<SchemaMetadata[]> {
    return this.#schemas.getSchemas();
  }

  async getTables(options: DatabaseMetadataOptions = { withInternalKyselyTables: false }): Promise<TableMetadata[]> {
    const { rows } = await sql<{ schema: string; name: string; kind: string }>`
      SELECT n.nspname AS schema, c.relname AS name, c.relkind AS kind
      FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
      WHERE c.relkind IN ('r', 'v', 'p', 'm', 'f')
        AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname !~ '^pg_toast'
      ORDER BY n.nspname, c.relname`.execute(this.#db);
    const internal = new Set([DEFAULT_MIGRATION_TABLE, DEFAULT_MIGRATION_LOCK_TABLE]);
    return rows
      .filter((r) => options.withInternalKyselyTables || !internal.has(r.name))
      .map((r) => ({ schema: r.schema, name: r.name, isView: r.kind === 'v' || r.kind === 'm', columns: [] }));
  }

  async getMetadata(options?: DatabaseMetadataOptions): Promise<{ tables: TableMetadata[] }> {
    return { tables: await this.getTables(options) };
  }
}

/** PostgresDialect whose introspection is safe beside other connections' DDL (TableNamesIntrospector). */
export class MigrationSafePostgresDialect extends PostgresDialect {
  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new TableNamesIntrospector(db);
  }
}
