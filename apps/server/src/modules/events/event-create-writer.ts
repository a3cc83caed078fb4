import type { GroupWriter } from '../../db/group-commit.js';
import type { EventsTable } from '../../db/schema.js';
import { AuditRepository, type NewAuditRow } from '../audit/audit.repository.js';
import { EventsRepository } from './events.repository.js';

/**
 * A created event and its audit row, both made by the service; plain data, so a batch of them
 * can be handed to the SQLite write thread (db/write-worker.ts).
 */
export interface EventCreateWrite {
  row: EventsTable;
  audit: NewAuditRow;
}

/** The name the write thread knows `eventCreateWriter` by (modules/writers.ts). */
export const eventCreateWriterName = 'eventCreates';

/** Event creates of one group commit: a batch of them in two multi-row inserts. */
export const eventCreateWriter: GroupWriter<EventCreateWrite, void> = {
  async many(trx, creates) {
    await new EventsRepository(trx).insertMany(creates.map((c) => c.row));
    await new AuditRepository(trx).appendMany(creates.map((c) => c.audit));
    return creates.map(() => undefined);
  },
  async one(trx, create) {
    await new EventsRepository(trx).insert(create.row);
    await new AuditRepository(trx).append(create.audit);
  },
};

/**
 * On PostgreSQL a batch is one statement, so one round trip in autocommit (instead of BEGIN, two
 * inserts, COMMIT): the events' insert is a data-modifying `WITH` of the audit rows' insert.
 * (SQLite has no data-modifying `WITH`; its batches are local calls anyway.)
 */
export const eventCreatePostgresWriter: GroupWriter<EventCreateWrite, void> = {
  ...eventCreateWriter,
  async statement(db, creates) {
    // 20 parameters per create: within PostgreSQL's 65,535 for a batch of up to 256 (group-commit.ts).
    await db
      .with('created', (qc) => qc.insertInto('events').values(creates.map((c) => c.row)))
      .insertInto('audit_log')
      .values(creates.map((c) => ({ ...c.audit, detail: null })))
      .execute();
    return creates.map(() => undefined);
  },
};
