/**
 * Decoded rows that cross layers: authentication (plugins/auth.ts) works on users and device keys,
 * whose repositories (users, device-keys modules) read and write them.
 */

import type { DeviceKeysTable, UsersTable } from './schema.js';

/** A user row with its JSON and flag columns decoded. */
export type UserRecord = Omit<UsersTable, 'roles' | 'system_user' | 'disabled' | 'login_token_sealed'> & {
  roles: string[];
  system_user: boolean;
  disabled: boolean;
  /** Absent or null until the loginToken is first shown. */
  login_token_sealed?: string | null;
};

/** A device key row with its roles decoded. The key itself is never stored, only its hash. */
export type DeviceKeyRecord = Omit<DeviceKeysTable, 'roles'> & { roles: string[] };
