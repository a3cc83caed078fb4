import type { CallerStore } from '../../plugins/auth.js';
import { DeviceKeysRepository } from './device-keys.repository.js';

/** The device keys authentication reads and the last-use mark it writes (plugins/auth.ts). */
export const deviceKeyCallers: Pick<CallerStore, 'deviceKey' | 'markKeyUsed'> = {
  deviceKey: (db, hash) => new DeviceKeysRepository(db).findByHash(hash),
  markKeyUsed: (db, id, at, address) => new DeviceKeysRepository(db).markUsed(id, at, address),
};
