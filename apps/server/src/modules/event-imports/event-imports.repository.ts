import type { Kysely, Transaction } from 'kysely';
import type { DB, EventAuxDataTable, EventsTable } from '../../db/schema.js';
import { claimImages } from '../../db/sql/image-owners.js';

export interface ImportRows {
  events: EventsTable[];
  aux: EventAuxDataTable[];
}

/** Rows per INSERT: within SQLite's and PostgreSQL's bound-parameter limits for these tables. */
const eventsPerInsert = 500;
const auxPerInsert = 1000;

/** Multi-row inserts of imported events and their aux data. */
export class EventImportsRepository {
  constructor(private readonly db: Kysely<DB> | Transaction<DB>) {}

  /**
   * Inserts the events whose id is not stored yet, and the aux records of exactly those events.
   * Returns how many events were inserted.
   */
  async insertNew(rows: ImportRows): Promise<number> {
    const inserted = new Set<string>();
    for (let i = 0; i < rows.events.length; i += eventsPerInsert) {
      const chunk = rows.events.slice(i, i + eventsPerInsert);
      const ids = await this.db
        .insertInto('events')
        .values(chunk)
        .onConflict((oc) => oc.column('id').doNothing())
        .returning('id')
        .execute();
      for (const { id } of ids) inserted.add(id);
    }
    const aux = inserted.size === rows.events.length ? rows.aux : rows.aux.filter((a) => inserted.has(a.event_id));
    for (let i = 0; i < aux.length; i += auxPerInsert) {
      await this.db
        .insertInto('event_aux_data')
        .values(aux.slice(i, i + auxPerInsert))
        .execute();
    }
    for (const a of aux) await claimImages(this.db, a.event_id, a.data_array);
    return inserted.size;
  }
}
