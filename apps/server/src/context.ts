import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.js';
import type { Database } from './db/database.js';
import type { ChannelBus } from './realtime/bus.js';
import type { Mailer } from './lib/mailer.js';
import type { CallerStore } from './plugins/auth.js';
import type { FileStore } from './storage/index.js';
import type { Transaction } from 'kysely';
import type { DB } from './db/schema.js';
import type { AuthContext } from './plugins/auth.js';

/**
 * What goes with cruises or lowerings being deleted, from the module that owns it (a lowering's
 * recordings): run inside the deleting transaction; answers the work for after the commit.
 */
export type RemoveCascade = (
  ctx: AppContext,
  trx: Transaction<DB>,
  caller: AuthContext,
  ids: readonly string[],
) => Promise<(() => Promise<void>) | undefined>;

/** What every module needs, built once in buildApp and handed to each module's routes. */
export interface AppContext {
  config: Config;
  database: Database;
  bus: ChannelBus;
  mailer: Mailer;
  /** JWT secret in force. */
  secret: string;
  log: FastifyBaseLogger;
  /** The users and device keys authentication reads (plugins/auth.ts). */
  callers: CallerStore;
  /** What each kind's deletion takes with it, registered by the modules that own it (modules/index.ts). */
  removeCascades: { cruise: readonly RemoveCascade[]; lowering: readonly RemoveCascade[] };
  /**
   * The server clock (epoch ms) for rules that turn on a date: archive embargoes open when it
   * passes them (docs/public-archive.md#embargo-dates). Tests give a fake one.
   */
  now(): number;
  /**
   * Every file the server keeps (images, thumbnails, attachments, cruise and lowering files,
   * pending uploads): the local folder or a bucket (docs/storage.md#files). Never touch
   * `paths.files` directly.
   */
  store: FileStore;
  /** Folders under the data folder. */
  paths: { data: string; files: string; images: string; cruises: string; lowerings: string; outbox: string };
}
