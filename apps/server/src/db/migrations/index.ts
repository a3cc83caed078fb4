import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../database.js';
import * as m001 from './001-initial.js';
import * as m002 from './002-event-search.js';
import * as m003 from './003-realtime-outbox.js';
import * as m004 from './004-aux-data-search.js';
import * as m005 from './005-template-button-color.js';
import * as m006 from './006-accounts.js';
import * as m009 from './009-audit-filters.js';
import * as m010 from './010-search-at-scale.js';
import * as m011 from './011-event-csv-shapes.js';
import * as m012 from './012-fulltext-without-asnap.js';
import * as m013 from './013-set-based-insert-triggers.js';
import * as m014 from './014-event-creator.js';
import * as m015 from './015-login-token-hash.js';
import * as m016 from './016-audit-append-only.js';
import * as m017 from './017-public-archive.js';
import * as m018 from './018-attachment-original-names.js';
import * as m019 from './019-ship-to-shore.js';
import * as m020 from './020-aux-completeness.js';
import * as m021 from './021-checklists.js';
import * as m022 from './022-relative-demo-framegrabs.js';
import * as m023 from './023-sync-refusals.js';
import * as m024 from './024-origins-and-image-owners.js';
import * as m025 from './025-event-created-at.js';
import * as m035 from './035-taxonomy.js';
import * as m038 from './038-publication-settings.js';
import * as m032 from './032-recordings.js';
import * as m026 from './026-aux-managers.js';
import * as m047 from './047-recording-copies-on-ship.js';
import * as m048 from './048-recording-copies-in-store.js';
import * as m049 from './049-recording-proxy-claims.js';

type DialectMigration = { up(db: Kysely<unknown>, dialect: Dialect): Promise<void> };

/**
 * Migrations in order. Each gets the dialect so engine-specific parts (full-text indexes)
 * live in the migration that creates them. Never edit a released migration; add a new one.
 */
const ordered: Array<[string, DialectMigration]> = [
  ['001-initial', m001],
  ['002-event-search', m002],
  ['003-realtime-outbox', m003],
  ['004-aux-data-search', m004],
  ['005-template-button-color', m005],
  ['006-accounts', m006],
  ['009-audit-filters', m009],
  ['010-search-at-scale', m010],
  ['011-event-csv-shapes', m011],
  ['012-fulltext-without-asnap', m012],
  ['013-set-based-insert-triggers', m013],
  ['014-event-creator', m014],
  ['015-login-token-hash', m015],
  ['016-audit-append-only', m016],
  ['017-public-archive', m017],
  ['018-attachment-original-names', m018],
  ['019-ship-to-shore', m019],
  ['020-aux-completeness', m020],
  ['021-checklists', m021],
  ['022-relative-demo-framegrabs', m022],
  ['023-sync-refusals', m023],
  ['024-origins-and-image-owners', m024],
  ['025-event-created-at', m025],
  ['035-taxonomy', m035],
  ['038-publication-settings', m038],
  ['032-recordings', m032],
  ['026-aux-managers', m026],
  ['047-recording-copies-on-ship', m047],
  ['048-recording-copies-in-store', m048],
  ['049-recording-proxy-claims', m049],
];

export function migrationsFor(dialect: Dialect): Record<string, Migration> {
  return Object.fromEntries(ordered.map(([name, m]) => [name, { up: (db: Kysely<unknown>) => m.up(db, dialect) }]));
}
