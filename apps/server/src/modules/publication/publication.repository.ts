import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/schema.js';

/** The installation's publication settings: one JSON document per part (docs/publication.md#settings). */
export class PublicationRepository {
  constructor(private readonly db: Kysely<DB> | Transaction<DB>) {}

  async readAll(): Promise<Map<string, string>> {
    const rows = await this.db.selectFrom('publication_settings').select(['name', 'value']).execute();
    return new Map(rows.map((r) => [r.name, r.value]));
  }

  async write(name: string, value: string, at: number, by: string | null): Promise<void> {
    await this.db
      .insertInto('publication_settings')
      .values({ name, value, updated_at: at, updated_by: by })
      .onConflict((oc) => oc.column('name').doUpdateSet({ value, updated_at: at, updated_by: by }))
      .execute();
  }
}
