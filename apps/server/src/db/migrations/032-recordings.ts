import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * Video recordings (docs/video.md): per lowering and camera, each recording's start (epoch ms, the
 * recorder's clock) and duration read by ffprobe (`recordings`); its copies, each a URI with what
 * ffprobe said of it (`recording_copies`; a URI is registered once); each camera's clock offset per
 * lowering (`camera_clock_offsets`); and the lowering-wide frame jobs with their per-event results
 * (`framegrab_jobs`, results as JSON). Times are epoch ms.
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('recordings')
    .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
    .addColumn('lowering_id', 'varchar(24)', (c) => c.notNull())
    .addColumn('camera', 'text', (c) => c.notNull())
    .addColumn('start_ts', 'bigint', (c) => c.notNull())
    .addColumn('duration_ms', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('recordings_lowering_camera_start')
    .on('recordings')
    .columns(['lowering_id', 'camera', 'start_ts'])
    .execute();
  await db.schema.createIndex('recordings_start').on('recordings').columns(['start_ts']).execute();
  await db.schema
    .createTable('recording_copies')
    .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
    .addColumn('recording_id', 'varchar(24)', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('uri', 'text', (c) => c.notNull())
    .addColumn('codec', 'text')
    .addColumn('size_bytes', 'bigint')
    .addColumn('width', 'integer')
    .addColumn('height', 'integer')
    .addColumn('frame_rate', 'double precision')
    .addColumn('interlaced', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('checksum', 'text')
    .execute();
  await db.schema.createIndex('recording_copies_uri').on('recording_copies').columns(['uri']).unique().execute();
  await db.schema.createIndex('recording_copies_recording').on('recording_copies').columns(['recording_id']).execute();
  await db.schema
    .createTable('camera_clock_offsets')
    .addColumn('lowering_id', 'varchar(24)', (c) => c.notNull())
    .addColumn('camera', 'text', (c) => c.notNull())
    .addColumn('offset_ms', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('camera_clock_offsets_pk', ['lowering_id', 'camera'])
    .execute();
  await db.schema
    .createTable('framegrab_jobs')
    .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
    .addColumn('lowering_id', 'varchar(24)', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('total', 'integer', (c) => c.notNull())
    .addColumn('results', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('finished_at', 'bigint')
    .execute();
  await db.schema.createIndex('framegrab_jobs_lowering').on('framegrab_jobs').columns(['lowering_id']).execute();
}
