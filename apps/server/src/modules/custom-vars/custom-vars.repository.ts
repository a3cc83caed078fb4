import type { Kysely, Transaction } from 'kysely';
import type { CustomVar } from '@bathylog/shared';
import type { DB } from '../../db/schema.js';

const columns = ['id', 'custom_var_name', 'custom_var_value'] as const;

export class CustomVarsRepository {
  constructor(private readonly db: Kysely<DB> | Transaction<DB>) {}

  async findById(id: string): Promise<CustomVar | undefined> {
    return this.db.selectFrom('custom_vars').select(columns).where('id', '=', id).executeTakeFirst();
  }

  async findByName(name: string): Promise<CustomVar | undefined> {
    return this.db.selectFrom('custom_vars').select(columns).where('custom_var_name', '=', name).executeTakeFirst();
  }

  /** All vars, or those whose name is one of `names`, in id (seeding) order. */
  async list(names?: string[]): Promise<CustomVar[]> {
    let q = this.db.selectFrom('custom_vars').select(columns);
    if (names) {
      if (names.length === 0) return [];
      q = q.where('custom_var_name', 'in', names);
    }
    return q.orderBy('id', 'asc').execute();
  }

  async setValue(id: string, value: string): Promise<void> {
    await this.db.updateTable('custom_vars').set({ custom_var_value: value }).where('id', '=', id).execute();
  }
}
