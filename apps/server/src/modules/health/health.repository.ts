import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/** The cheapest round trip to the database. */
export class HealthRepository {
  constructor(private readonly db: Kysely<DB>) {}

  async ping(): Promise<void> {
    await sql`SELECT 1`.execute(this.db);
  }
}
