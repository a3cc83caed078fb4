import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/schema.js';
import { parseJson } from '../../lib/json.js';

/** Access lists of cruises and lowerings: JSON arrays of user ids. */
export class AccessListsRepository {
  constructor(private readonly db: Kysely<DB> | Transaction<DB>) {}

  /** Removes a deleted user from every cruise and lowering access list. */
  async removeUserEverywhere(userId: string): Promise<void> {
    const needle = `%"${userId}"%`;
    const cruises = await this.db
      .selectFrom('cruises')
      .select(['id', 'cruise_access_list'])
      .where('cruise_access_list', 'like', needle)
      .execute();
    for (const c of cruises) {
      const list = parseJson<string[]>(c.cruise_access_list, []).filter((u) => u !== userId);
      await this.db.updateTable('cruises').set({ cruise_access_list: JSON.stringify(list) }).where('id', '=', c.id).execute();
    }
    const lowerings = await this.db
      .selectFrom('lowerings')
      .select(['id', 'lowering_access_list'])
      .where('lowering_access_list', 'like', needle)
      .execute();
    for (const l of lowerings) {
      const list = parseJson<string[]>(l.lowering_access_list, []).filter((u) => u !== userId);
      await this.db
        .updateTable('lowerings')
        .set({ lowering_access_list: JSON.stringify(list) })
        .where('id', '=', l.id)
        .execute();
    }
  }
}
