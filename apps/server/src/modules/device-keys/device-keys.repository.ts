import type { Kysely, Selectable, Transaction } from 'kysely';
import type { DB, DeviceKeysTable } from '../../db/schema.js';
import type { DeviceKeyRecord } from '../../db/records.js';
import { parseJson } from '../../lib/json.js';

export type { DeviceKeyRecord };

const num = (v: number | null) => (v === null ? null : Number(v));

function fromRow(row: Selectable<DeviceKeysTable>): DeviceKeyRecord {
  return {
    ...row,
    roles: parseJson<string[]>(row.roles, []),
    created_at: Number(row.created_at),
    expires_at: num(row.expires_at),
    last_used_at: num(row.last_used_at),
    revoked_at: num(row.revoked_at),
  };
}

export class DeviceKeysRepository {
  constructor(private readonly db: Kysely<DB> | Transaction<DB>) {}

  async findById(id: string): Promise<DeviceKeyRecord | undefined> {
    const row = await this.db.selectFrom('device_keys').selectAll().where('id', '=', id).executeTakeFirst();
    return row && fromRow(row);
  }

  async findByHash(hash: string): Promise<DeviceKeyRecord | undefined> {
    const row = await this.db.selectFrom('device_keys').selectAll().where('key_hash', '=', hash).executeTakeFirst();
    return row && fromRow(row);
  }

  /** Newest first. */
  async list(): Promise<DeviceKeyRecord[]> {
    const rows = await this.db
      .selectFrom('device_keys')
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    return rows.map(fromRow);
  }

  async insert(key: DeviceKeyRecord): Promise<void> {
    await this.db
      .insertInto('device_keys')
      .values({ ...key, roles: JSON.stringify(key.roles) })
      .execute();
  }

  async markUsed(id: string, at: number, address: string | null): Promise<void> {
    await this.db
      .updateTable('device_keys')
      .set({ last_used_at: at, last_used_address: address })
      .where('id', '=', id)
      .execute();
  }

  /** Revokes an active key; false when it was already revoked. */
  async revoke(id: string, at: number, by: string): Promise<boolean> {
    const result = await this.db
      .updateTable('device_keys')
      .set({ revoked_at: at, revoked_by: by })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}
