import type { Generated } from 'kysely';

/**
 * Table types. Columns are snake_case like the Sealog wire format, so rows map to API objects
 * with few renames. Timestamps are epoch milliseconds (BIGINT) so range queries use plain
 * integer indexes on both engines; flags are 0/1 integers; lists and free-form objects are JSON text.
 */
export interface UsersTable {
  id: string;
  username: string;
  fullname: string;
  email: string;
  password: string;
  roles: string;
  system_user: number;
  disabled: number;
  last_login: number;
  /** SHA-256 (hex) of the loginToken; the token itself is not stored in clear. */
  login_token: string;
  /** The loginToken sealed with the server secret (lib/login-token.ts), to show it again; null until shown. */
  login_token_sealed: string | null;
  /** Epoch seconds: when the loginToken was issued (refused when older than a revocation mark). */
  login_token_at?: number;
  reset_password_token: string | null;
  reset_password_expires: number | null;
  /** Epoch seconds: browser sessions issued before are refused. */
  sessions_valid_after: number;
  /** Epoch seconds: API tokens (GET users/{id}/token) issued before are refused. */
  api_tokens_valid_after: number;
}

/** Standard publication settings, one JSON document per part (docs/publication.md). */
export interface PublicationSettingsTable {
  name: string;
  value: string;
  updated_at: number;
  updated_by: string | null;
}

export interface CruisesTable {
  id: string;
  cruise_id: string;
  start_ts: number;
  stop_ts: number;
  cruise_location: string;
  cruise_tags: string;
  cruise_hidden: number;
  cruise_access_list: string;
  cruise_additional_meta: string;
  /** 0/1 (docs/public-archive.md). */
  cruise_public: Generated<number>;
  /** Epoch ms the embargo ends; null: none. */
  cruise_embargo_until: number | null;
}

export interface LoweringsTable {
  id: string;
  lowering_id: string;
  start_ts: number;
  stop_ts: number;
  lowering_location: string;
  lowering_tags: string;
  lowering_hidden: number;
  lowering_access_list: string;
  lowering_additional_meta: string;
  /** 0/1, or null: the lowering inherits its cruise's archive setting (docs/public-archive.md). */
  lowering_public: number | null;
  lowering_embargo_until: number | null;
}

export interface EventsTable {
  id: string;
  ts: number;
  event_author: string;
  event_value: string;
  event_options: string;
  event_free_text: string;
  /**
   * The user or device key id that created the event (null: unknown; only admins and event
   * managers change it). Every server write sets it; optional only for rows made by hand.
   */
  created_by?: string | null;
  /**
   * When this server stored the event (epoch ms; null: before it was recorded, or not through a
   * caller's create). The creator's delete window runs from it. Optional only for rows made by hand.
   */
  created_at?: number | null;
}

export interface EventAuxDataTable {
  id: string;
  event_id: string;
  data_source: string;
  data_array: string;
}

/** Events judged incomplete when their grace period ended (migration 020, docs/completeness.md). */
export interface EventCompletenessMarksTable {
  event_id: string;
  judged_at: number;
  /** When the missing aux data arrived after all (the event is `late`); null while it is missing. */
  completed_at: number | null;
}

export interface EventTemplatesTable {
  id: string;
  event_name: string;
  event_value: string;
  event_free_text_required: number;
  system_template: number;
  template_categories: string;
  template_style: string | null;
  event_button_color: string | null;
  disabled: number;
  admin_only: number;
  event_options: string;
}

/** An event attachment's stored name and the name it was uploaded with (migration 018). */
export interface EventAttachmentFilesTable {
  name: string;
  event_id: string;
  original_name: string;
  created_at: number;
}

export interface CustomVarsTable {
  id: string;
  custom_var_name: string;
  custom_var_value: string;
}

export interface DeviceKeysTable {
  id: string;
  name: string;
  /** SHA-256 (hex) of the key; the key itself is never stored. */
  key_hash: string;
  key_prefix: string;
  roles: string;
  created_at: number;
  /** Username of the admin who created it. */
  created_by: string;
  expires_at: number | null;
  last_used_at: number | null;
  last_used_address: string | null;
  revoked_at: number | null;
  revoked_by: string | null;
}

/** Append-only: one row per change (the audit trail). */
export interface AuditLogTable {
  seq: Generated<number>;
  at: number;
  /** The acting user (for a device key: none). */
  user_id: string | null;
  action: string;
  record_type: string;
  record_id: string | null;
  detail: string | null;
  actor_kind: string | null;
  actor_name: string | null;
  key_id: string | null;
  route: string | null;
  old_value: string | null;
  new_value: string | null;
}

/** A checklist definition (migration 021); `items` is the JSON list of its items. */
export interface ChecklistsTable {
  id: string;
  name: string;
  phase: string;
  items: string;
  sort_order: number;
  created_at: number;
  updated_at: number;
}

/** A checklist run of one lowering (migration 021); JSON in `definition` and `item_states`. */
export interface ChecklistRunsTable {
  id: string;
  checklist_id: string;
  lowering_id: string;
  definition: string;
  item_states: string;
  created_at: number;
  completed_at: number | null;
  completed_by: string | null;
}

/** A video recording of one camera in a lowering (migration 032, docs/video.md). */
export interface RecordingsTable {
  id: string;
  lowering_id: string;
  camera: string;
  start_ts: number;
  duration_ms: number;
  created_at: number;
  /** While a host makes the recording's proxy: when it last said so (migration 049). */
  proxy_claimed_at: number | null;
}

/** One copy of a recording (master, proxy, HLS playlist) and what ffprobe read of it (migration 032). */
export interface RecordingCopiesTable {
  id: string;
  recording_id: string;
  role: string;
  uri: string;
  codec: string | null;
  size_bytes: number | null;
  width: number | null;
  height: number | null;
  frame_rate: number | null;
  interlaced: number;
  checksum: string | null;
  /** 1: a copy the shore lists but does not hold (migration 047). */
  on_ship_only: number;
}

/** A camera's clock offset in one lowering (migration 032). */
export interface CameraClockOffsetsTable {
  lowering_id: string;
  camera: string;
  offset_ms: number;
}

/** A lowering-wide frame job (migration 032); `results`: JSON list of per-event results. */
export interface FramegrabJobsTable {
  id: string;
  lowering_id: string;
  state: string;
  total: number;
  results: string;
  created_at: number;
  updated_at: number;
  finished_at: number | null;
}

/** Shore: a ship this server follows (docs/ship-to-shore.md). */
export interface SyncShipsTable {
  id: string;
  name: string;
  url: string;
  /** The ship's device key, sent as its Bearer token; never answered. */
  device_key: string;
  enabled: number;
  bandwidth_kbps: number | null;
  cursor: string | null;
  state: string;
  last_contact: number | null;
  last_error: string | null;
  head: string | null;
  behind_records: number;
  behind_bytes: number;
  created_at: number;
  /** Changes the ship sent that the shore refused, in all (migration 023). */
  refused_count: Generated<number>;
}

/** Shore: the ship each copied record came from. */
export interface SyncOriginsTable {
  record_type: string;
  record_id: string;
  ship_id: string;
}

/** Shore: a change a ship sent that the shore refused (migration 023), the latest per ship. */
export interface SyncRefusalsTable {
  id: string;
  ship_id: string;
  at: number;
  record_type: string;
  record_id: string;
  reason: string;
}

/** Shore: a ship no longer followed, whose copied records stay read-only under its name. */
export interface SyncFormerShipsTable {
  id: string;
  name: string;
  removed_at: number;
}

/** The event whose aux record first named an image file (frame grabs): the image is served with it alone. */
export interface ImageOwnersTable {
  name: string;
  event_id: string;
}

/** Shore: a file (or its thumbnail, priority 0) still to fetch from a ship. */
export interface SyncFileQueueTable {
  ship_id: string;
  path: string;
  sha256: string;
  size: number;
  priority: number;
  added_at: number;
}

/** Shore: a comment written on shore still to send to its ship. */
export interface SyncCommentQueueTable {
  id: string;
  ship_id: string;
  event_id: string;
  text: string;
  author: string;
  created_at: number;
}

/** Ship: each following shore (by its device key), where it is. */
export interface SyncFollowersTable {
  key_id: string;
  cursor: string | null;
  last_contact: number;
}

/** Ship: the checksum of each file the change feed has named (path under the data folder). */
export interface SyncFileHashesTable {
  path: string;
  sha256: string;
  size: number;
  mtime: number;
}

/** A WoRMS taxon (docs/taxa.md). `name_key`: the name folded for search (lower case, no accents). */
export interface TaxaTable {
  aphia_id: number;
  scientific_name: string;
  name_key: string;
  authority: string | null;
  taxon_rank: string | null;
  /** WoRMS status: `accepted`, `unaccepted`, `alternate representation`, … */
  status: string | null;
  accepted_aphia_id: number | null;
  parent_aphia_id: number | null;
  /** 1 marine, 0 not, null unknown. */
  is_marine: number | null;
  /** Where the record came from: the import's version label (`WoRMS DwC 2026-11-01`, `WoRMS REST 2026-11-29`). */
  source: string;
  updated_at: number;
}

export interface TaxonVernacularsTable {
  aphia_id: number;
  vernacular_name: string;
  /** ISO 639 code as WoRMS gives it (`eng`, `en`), or ''. */
  language: Generated<string>;
  name_key: string;
}

/** A legacy option value mapped to a taxon: scope is an option or template name. */
export interface TaxonLegacyMappingsTable {
  id: string;
  scope: string;
  scope_key: string;
  value: string;
  value_key: string;
  aphia_id: number;
  qualifier: Generated<string>;
  created_by: Generated<string>;
  created_at: number;
  updated_at: number;
}

/** A built-in aux-data manager (docs/aux-managers.md#managers). */
export interface AuxManagersTable {
  id: string;
  name: string;
  kind: string;
  enabled: number;
  required: number;
  max_age_ms: number;
  timeout_ms: number;
  config_yaml: string;
  file_hash: string | null;
  created_at: number;
  updated_at: number;
}

export interface TaxonImportsTable {
  id: string;
  kind: string;
  source: string;
  started_by: Generated<string>;
  started_at: number;
  finished_at: number | null;
  /** `running`, `done`, `failed`. */
  state: string;
  taxa: Generated<number>;
  vernaculars: Generated<number>;
  message: Generated<string>;
}

/** The leading process's health of a manager (docs/aux-managers.md#health); counters are JSON. */
export interface AuxManagerHealthTable {
  manager_id: string;
  state: string;
  last_value_ts: number | null;
  last_success_at: number | null;
  last_error: string | null;
  last_error_at: number | null;
  counters: string;
  updated_at: number;
}

/** Who wrote an event's record of a data source, and how (docs/aux-managers.md#provenance). */
export interface AuxManagerWritesTable {
  event_id: string;
  data_source: string;
  /** The event's time the record was built for: a changed time rebuilds it. */
  event_ts: number;
  manager_id: string;
  manager_name: string;
  source_kind: string;
  provenance: string;
  value_ts: number | null;
  data_hash: string;
  written_at: number;
}

export interface DB {
  users: UsersTable;
  cruises: CruisesTable;
  lowerings: LoweringsTable;
  events: EventsTable;
  event_aux_data: EventAuxDataTable;
  event_completeness_marks: EventCompletenessMarksTable;
  event_templates: EventTemplatesTable;
  custom_vars: CustomVarsTable;
  audit_log: AuditLogTable;
  device_keys: DeviceKeysTable;
  event_attachment_files: EventAttachmentFilesTable;
  checklists: ChecklistsTable;
  checklist_runs: ChecklistRunsTable;
  sync_ships: SyncShipsTable;
  sync_origins: SyncOriginsTable;
  sync_former_ships: SyncFormerShipsTable;
  image_owners: ImageOwnersTable;
  sync_file_queue: SyncFileQueueTable;
  sync_comment_queue: SyncCommentQueueTable;
  sync_followers: SyncFollowersTable;
  sync_file_hashes: SyncFileHashesTable;
  sync_refusals: SyncRefusalsTable;
  taxa: TaxaTable;
  taxon_vernaculars: TaxonVernacularsTable;
  taxon_legacy_mappings: TaxonLegacyMappingsTable;
  taxon_imports: TaxonImportsTable;
  publication_settings: PublicationSettingsTable;
  recordings: RecordingsTable;
  recording_copies: RecordingCopiesTable;
  camera_clock_offsets: CameraClockOffsetsTable;
  framegrab_jobs: FramegrabJobsTable;
  aux_managers: AuxManagersTable;
  aux_manager_health: AuxManagerHealthTable;
  aux_manager_writes: AuxManagerWritesTable;
}
