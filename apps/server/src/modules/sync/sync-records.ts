import type { SyncRecordType } from '@bathylog/shared';
import type { DB } from '../../db/schema.js';

/** The tables of the records the feed carries, and the columns copied (both engines have them). */
export const syncTables = {
  cruise: {
    table: 'cruises',
    columns: [
      'id',
      'cruise_id',
      'start_ts',
      'stop_ts',
      'cruise_location',
      'cruise_tags',
      'cruise_hidden',
      'cruise_access_list',
      'cruise_additional_meta',
      'cruise_public',
      'cruise_embargo_until',
    ],
  },
  lowering: {
    table: 'lowerings',
    columns: [
      'id',
      'lowering_id',
      'start_ts',
      'stop_ts',
      'lowering_location',
      'lowering_tags',
      'lowering_hidden',
      'lowering_access_list',
      'lowering_additional_meta',
      'lowering_public',
      'lowering_embargo_until',
    ],
  },
  event_template: {
    table: 'event_templates',
    columns: [
      'id',
      'event_name',
      'event_value',
      'event_free_text_required',
      'system_template',
      'template_categories',
      'template_style',
      'event_button_color',
      'disabled',
      'admin_only',
      'event_options',
    ],
  },
  event: {
    table: 'events',
    columns: ['id', 'ts', 'event_author', 'event_value', 'event_options', 'event_free_text', 'created_by'],
  },
  event_aux_data: { table: 'event_aux_data', columns: ['id', 'event_id', 'data_source', 'data_array'] },
} as const satisfies Record<
  Exclude<SyncRecordType, 'file' | 'recording'>,
  { table: keyof DB; columns: readonly string[] }
>;

export type TableRecordType = keyof typeof syncTables;

/** The order of the snapshot (and of priority): records a screen needs first, files last. */
export const snapshotOrder: readonly SyncRecordType[] = [
  'cruise',
  'lowering',
  'event_template',
  'event',
  'event_aux_data',
  'file',
  // Last, so that snapshot cursors handed out before recordings followed keep their meaning.
  'recording',
];

export const isTableType = (t: string): t is TableRecordType => t in syncTables;
