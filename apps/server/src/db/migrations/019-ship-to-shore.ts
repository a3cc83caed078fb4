import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * Ship-to-shore replication (docs/ship-to-shore.md). On the shore: the ships it follows (their
 * address and device key, which the server must send and so stores as given, never answered), the
 * files still to fetch from each, the comments still to send back, and where each copied record
 * came from. On the ship: each follower's cursor and last contact, and the checksums of the files
 * it has served. On PostgreSQL each audit row also records its transaction id, so the change feed
 * never passes a row of a transaction still in flight (docs/ship-to-shore.md#the-cursor).
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('sync_ships')
    .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('device_key', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('bandwidth_kbps', 'integer')
    .addColumn('cursor', 'text')
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('catching_up'))
    .addColumn('last_contact', 'bigint')
    .addColumn('last_error', 'text')
    .addColumn('head', 'text')
    .addColumn('behind_records', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('behind_bytes', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('sync_origins')
    .addColumn('record_type', 'varchar(24)', (c) => c.notNull())
    .addColumn('record_id', 'text', (c) => c.notNull())
    .addColumn('ship_id', 'varchar(24)', (c) => c.notNull())
    .addPrimaryKeyConstraint('sync_origins_pk', ['record_type', 'record_id'])
    .execute();
  await db.schema.createIndex('sync_origins_ship').on('sync_origins').columns(['ship_id', 'record_type']).execute();
  await db.schema
    .createTable('sync_file_queue')
    .addColumn('ship_id', 'varchar(24)', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('sha256', 'varchar(64)', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('priority', 'integer', (c) => c.notNull())
    .addColumn('added_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('sync_file_queue_pk', ['ship_id', 'path', 'priority'])
    .execute();
  await db.schema
    .createIndex('sync_file_queue_order')
    .on('sync_file_queue')
    .columns(['ship_id', 'priority', 'added_at'])
    .execute();
  await db.schema
    .createTable('sync_comment_queue')
    .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
    .addColumn('ship_id', 'varchar(24)', (c) => c.notNull())
    .addColumn('event_id', 'varchar(24)', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('author', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('sync_followers')
    .addColumn('key_id', 'varchar(24)', (c) => c.primaryKey())
    .addColumn('cursor', 'text')
    .addColumn('last_contact', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('sync_file_hashes')
    .addColumn('path', 'text', (c) => c.primaryKey())
    .addColumn('sha256', 'varchar(64)', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('mtime', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sync_file_hashes_sha').on('sync_file_hashes').column('sha256').execute();
  if (dialect === 'postgres') {
    // Rows written before this migration share its transaction id (ordered by seq within it).
    await sql`alter table audit_log add column xid xid8 not null default pg_current_xact_id()`.execute(db);
    await sql`create index audit_log_xid_seq on audit_log (xid, seq)`.execute(db);
  }
}
