import { newObjectId, toIso, type CreatedDeviceKey, type DeviceKey } from '@bathylog/shared';
import type { AppContext } from '../../context.js';
import { AppError } from '../../lib/app-error.js';
import type { AuthContext } from '../../plugins/auth.js';
import { internalChannels } from '../../realtime/internal-channels.js';
import { recordChange } from '../audit/audit.js';
import { hashDeviceKey, newDeviceKey } from '../../lib/device-key-format.js';
import { DeviceKeysRepository, type DeviceKeyRecord } from './device-keys.repository.js';

export function toPublicKey(k: DeviceKeyRecord): DeviceKey {
  const iso = (v: number | null) => (v === null ? null : toIso(v));
  return {
    id: k.id,
    name: k.name,
    key_prefix: k.key_prefix,
    roles: k.roles,
    created: toIso(k.created_at),
    created_by: k.created_by,
    expires: iso(k.expires_at),
    last_used: iso(k.last_used_at),
    last_used_address: k.last_used_address,
    revoked: iso(k.revoked_at),
    revoked_by: k.revoked_by,
  };
}

/**
 * Device keys (docs/roles-and-access.md#device-keys): an admin creates a named key with chosen
 * roles and an optional expiry; the key is answered once and only its SHA-256 is stored; revoking
 * ends it at once, on REST and on open websockets.
 */
export class DeviceKeysService {
  constructor(private readonly ctx: AppContext) {}

  private get repo() {
    return new DeviceKeysRepository(this.ctx.database.db);
  }

  async list(): Promise<DeviceKey[]> {
    return (await this.repo.list()).map(toPublicKey);
  }

  async create(
    caller: AuthContext,
    body: { name: string; roles: string[]; expires?: number | null },
  ): Promise<CreatedDeviceKey> {
    const now = Date.now();
    if (body.expires != null && body.expires <= now) {
      throw new AppError('BAD_REQUEST', '"expires" must be in the future');
    }
    const active = (await this.repo.list()).filter(
      (k) => k.revoked_at === null && (k.expires_at === null || k.expires_at > now),
    );
    if (active.some((k) => k.name.toLowerCase() === body.name.toLowerCase())) {
      throw new AppError('CONFLICT', `A device key named ${body.name} already exists`);
    }
    const key = newDeviceKey();
    const record: DeviceKeyRecord = {
      id: newObjectId(),
      name: body.name,
      key_hash: hashDeviceKey(key),
      key_prefix: key.slice(0, 8),
      roles: [...new Set(body.roles)],
      created_at: now,
      created_by: caller.user.username,
      expires_at: body.expires ?? null,
      last_used_at: null,
      last_used_address: null,
      revoked_at: null,
      revoked_by: null,
    };
    // The audit row holds what the list shows (name, prefix, roles, expiry), never the key or its hash.
    await this.ctx.database.db.transaction().execute(async (trx) => {
      await new DeviceKeysRepository(trx).insert(record);
      await recordChange(trx, caller, {
        action: 'create',
        record_type: 'device_key',
        record_id: record.id,
        new_value: toPublicKey(record),
      });
    });
    return { ...toPublicKey(record), key };
  }

  async revoke(caller: AuthContext, id: string): Promise<void> {
    await this.ctx.database.db.transaction().execute(async (trx) => {
      const repo = new DeviceKeysRepository(trx);
      const key = await repo.findById(id);
      if (!key) throw new AppError('NOT_FOUND', `No device key found for id: ${id}`);
      if (!(await repo.revoke(id, Date.now(), caller.user.username))) {
        throw new AppError('BAD_REQUEST', 'The device key is already revoked');
      }
      await recordChange(trx, caller, {
        action: 'revoke',
        record_type: 'device_key',
        record_id: id,
        old_value: toPublicKey(key),
        new_value: toPublicKey((await repo.findById(id))!),
      });
    });
    this.ctx.bus.publish(internalChannels.revoked, { keyId: id });
  }
}
