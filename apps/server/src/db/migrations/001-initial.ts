import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/** The whole schema the Sealog API needs, with the indexes its queries use. */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const ts = 'bigint' as const;
  await db.schema
    .createTable('users')
    .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
    .addColumn('username', 'text', (c) => c.notNull().unique())
    .addColumn('fullname', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('password', 'text', (c) => c.notNull())
    .addColumn('roles', 'text', (c) => c.notNull())
    .addColumn('system_user', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('disabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_login', ts, (c) => c.notNull())
    .addColumn('login_token', 'text', (c) => c.notNull().unique())
    .addColumn('reset_password_token', 'text')
    .addColumn('reset_password_expires', ts)
    .execute();
  await db.schema.createIndex('users_email_idx').on('users').column('email').execute();
  await db.schema.createIndex('users_reset_idx').on('users').column('reset_password_token').execute();

  for (const kind of ['cruise', 'lowering'] as const) {
    const table = `${kind}s`;
    await db.schema
      .createTable(table)
      .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
      .addColumn(`${kind}_id`, 'text', (c) => c.notNull())
      .addColumn('start_ts', ts, (c) => c.notNull())
      .addColumn('stop_ts', ts, (c) => c.notNull())
      .addColumn(`${kind}_location`, 'text', (c) => c.notNull().defaultTo(''))
      .addColumn(`${kind}_tags`, 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn(`${kind}_hidden`, 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn(`${kind}_access_list`, 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn(`${kind}_additional_meta`, 'text', (c) => c.notNull().defaultTo('{}'))
      .execute();
    await db.schema.createIndex(`${table}_start_idx`).on(table).columns(['start_ts', 'stop_ts']).execute();
    await db.schema.createIndex(`${table}_human_id_idx`).on(table).column(`${kind}_id`).execute();
  }

  await db.schema
    .createTable('events')
    .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
    .addColumn('ts', ts, (c) => c.notNull())
    .addColumn('event_author', 'text', (c) => c.notNull())
    .addColumn('event_value', 'text', (c) => c.notNull())
    .addColumn('event_options', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('event_free_text', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.createIndex('events_ts_idx').on('events').columns(['ts', 'id']).execute();
  await db.schema.createIndex('events_value_ts_idx').on('events').columns(['event_value', 'ts']).execute();

  await db.schema
    .createTable('event_aux_data')
    .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
    .addColumn('event_id', 'varchar(24)', (c) => c.notNull().references('events.id').onDelete('cascade'))
    .addColumn('data_source', 'text', (c) => c.notNull())
    .addColumn('data_array', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('event_aux_data_event_source_idx')
    .on('event_aux_data')
    .columns(['event_id', 'data_source'])
    .unique()
    .execute();
  await db.schema
    .createIndex('event_aux_data_source_idx')
    .on('event_aux_data')
    .columns(['data_source', 'event_id'])
    .execute();

  await db.schema
    .createTable('event_templates')
    .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
    .addColumn('event_name', 'text', (c) => c.notNull())
    .addColumn('event_value', 'text', (c) => c.notNull())
    .addColumn('event_free_text_required', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('system_template', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('template_categories', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('template_style', 'text')
    .addColumn('disabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('admin_only', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('event_options', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
  await db.schema.createIndex('event_templates_name_idx').on('event_templates').column('event_name').execute();

  await db.schema
    .createTable('custom_vars')
    .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
    .addColumn('custom_var_name', 'text', (c) => c.notNull().unique())
    .addColumn('custom_var_value', 'text', (c) => c.notNull().defaultTo(''))
    .execute();

  await db.schema
    .createTable('audit_log')
    .addColumn('seq', dialect === 'postgres' ? 'bigserial' : 'integer', (c) =>
      dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
    )
    .addColumn('at', ts, (c) => c.notNull())
    .addColumn('user_id', 'varchar(24)')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('record_type', 'text', (c) => c.notNull())
    .addColumn('record_id', 'varchar(24)')
    .addColumn('detail', 'text')
    .execute();
  await db.schema.createIndex('audit_log_record_idx').on('audit_log').columns(['record_type', 'record_id']).execute();
  await sql`select 1`.execute(db);
}
