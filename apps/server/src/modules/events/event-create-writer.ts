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
