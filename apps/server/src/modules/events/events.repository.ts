import { sql, type Kysely, type Transaction } from 'kysely';
import type { Dialect } from '../../db/database.js';
import type { DB, EventsTable } from '../../db/schema.js';
import type { EventRow } from './event-search.js';

/** Events by id: the plain reads and writes (searching lives in event-search.ts). */
export class EventsRepository {
  constructor(private readonly db: Kysely<DB> | Transaction<DB>) {}

  async findById(id: string): Promise<EventRow | undefined> {
    const row = await this.db.selectFrom('events').selectAll().where('id', '=', id).executeTakeFirst();
    // PostgreSQL returns bigint columns as strings.
    return row && { ...row, ts: Number(row.ts), created_at: row.created_at == null ? null : Number(row.created_at) };
  }

  async count(): Promise<number> {
    const row = await this.db
      .selectFrom('events')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async exists(id: string): Promise<boolean> {
    const row = await this.db.selectFrom('events').select('id').where('id', '=', id).executeTakeFirst();
    return row !== undefined;
  }

  /** Which of the given ids are stored events. */
  async existingIds(ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db.selectFrom('events').select('id').where('id', 'in', ids).execute();
    return new Set(rows.map((r) => r.id));
  }

  async insert(row: EventsTable): Promise<void> {
    await this.db.insertInto('events').values(row).execute();
  }

  /** Several rows at once (multi-row inserts within both engines' bound-parameter limits). */
  async insertMany(rows: readonly EventsTable[]): Promise<void> {
    for (let i = 0; i < rows.length; i += 500) {
      await this.db
        .insertInto('events')
        .values(rows.slice(i, i + 500))
        .execute();
    }
  }

  async update(id: string, patch: Partial<Omit<EventsTable, 'id'>>): Promise<void> {
    if (Object.keys(patch).length === 0) return;
    await this.db.updateTable('events').set(patch).where('id', '=', id).execute();
  }

  async delete(id: string): Promise<number> {
    const result = await this.db.deleteFrom('events').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async deleteMany(ids: readonly string[]): Promise<number> {
    if (ids.length === 0) return 0;
    const result = await this.db.deleteFrom('events').where('id', 'in', ids).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /**
   * Removes every event and aux record. On SQLite the search index and the per-day value counts
   * are emptied first, so the per-row delete triggers find nothing to unindex or count down (a
   * wipe of a million events stays quick); the CSV shape links (migration 011) likewise.
   */
  async deleteAll(dialect: Dialect): Promise<void> {
    await sql`DELETE FROM event_csv_shapes`.execute(this.db);
    if (dialect === 'sqlite') {
      await sql`INSERT INTO event_aux_fts(event_aux_fts) VALUES ('delete-all')`.execute(this.db);
      await sql`DELETE FROM event_aux_search`.execute(this.db);
    }
    await this.db.deleteFrom('event_aux_data').execute();
    if (dialect === 'sqlite') {
      await sql`INSERT INTO events_fts(events_fts) VALUES ('delete-all')`.execute(this.db);
      await sql`INSERT INTO events_fts_no_asnap(events_fts_no_asnap) VALUES ('delete-all')`.execute(this.db);
      await sql`DELETE FROM event_search`.execute(this.db);
      await sql`DELETE FROM event_value_days`.execute(this.db);
    }
    await this.db.deleteFrom('events').execute();
  }
}
