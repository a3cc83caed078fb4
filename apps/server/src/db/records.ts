/**
 * Decoded rows that cross layers: authentication (plugins/auth.ts) works on users and device keys,
 * whose repositories (users, device-keys modules) read and write them.
 */

/** A user row with its JSON and flag columns decoded. */
export interface UserRecord {
  id: string;
  username: string;
  fullname: string;
  email: string;
  password: string;
  roles: string[];
  system_user: boolean;
  disabled: boolean;
  last_login: number;
  /** SHA-256 (hex) of the loginToken (lib/login-token.ts). */
  login_token: string;
  /** The loginToken sealed with the server secret; absent or null until it is first shown. */
  login_token_sealed?: string | null;
  /** Epoch seconds: when the loginToken was issued; absent counts as 0. */
  login_token_at?: number;
  reset_password_token: string | null;
  reset_password_expires: number | null;
  /** Epoch seconds: browser sessions issued before are refused. */
  sessions_valid_after: number;
  /** Epoch seconds: API tokens issued before are refused. */
  api_tokens_valid_after: number;
}

/** A device key row with its roles decoded. The key itself is never stored, only its hash. */
export interface DeviceKeyRecord {
  id: string;
  name: string;
  key_hash: string;
  key_prefix: string;
  roles: string[];
  created_at: number;
  created_by: string;
  expires_at: number | null;
  last_used_at: number | null;
  last_used_address: string | null;
  revoked_at: number | null;
  revoked_by: string | null;
}
