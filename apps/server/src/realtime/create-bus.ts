import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/database.js';
import { LocalBus, type ChannelBus } from './bus.js';
import { PgBus } from './pg-bus.js';

/** In-process bus for SQLite; LISTEN/NOTIFY across processes for PostgreSQL. */
export async function createBus(database: Database, log: FastifyBaseLogger): Promise<ChannelBus> {
  if (database.dialect !== 'postgres' || !database.url) return new LocalBus();
  const bus = new PgBus({ url: database.url, schema: database.schema, log });
  await bus.start();
  return bus;
}
