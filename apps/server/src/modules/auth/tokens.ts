import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/schema.js';
import { nowSeconds } from '../../lib/jwt.js';
import { unusableLoginTokenHash } from '../../lib/login-token.js';
import { UsersRepository, type UserRecord } from '../users/users.repository.js';

/**
 * Ends the user's browser sessions and login token (password change or reset; the tokens are
 * issued by plugins/session-tokens.ts); with `apiTokens`, also the API tokens (password change or reset, "sign out everywhere"). The new mark lies after
 * every `iat` issued so far (at most max(now, old mark)), so even a token issued within the same
 * second is refused. The login token is replaced by one nobody knows; GET users/{id}/loginToken
 * then shows a new one.
 */
export async function revokeTokens(
  db: Kysely<DB> | Transaction<DB>,
  userId: string,
  opts: { apiTokens: boolean },
): Promise<void> {
  const repo = new UsersRepository(db);
  const user = await repo.findById(userId);
  if (!user) return;
  const now = nowSeconds();
  const sessionsMark = Math.max(now, user.sessions_valid_after) + 1;
  await repo.update(userId, {
    sessions_valid_after: sessionsMark,
    ...(opts.apiTokens ? { api_tokens_valid_after: Math.max(now, user.api_tokens_valid_after) + 1 } : {}),
    login_token: unusableLoginTokenHash(),
    login_token_sealed: null,
    login_token_at: sessionsMark,
  });
}

/** When a login token issued now counts as issued: never before a revocation mark. */
export function loginTokenIssuedAt(user: UserRecord): number {
  return Math.max(nowSeconds(), user.sessions_valid_after, user.api_tokens_valid_after);
}

/** False for a login token issued before one of the user's revocation marks. */
export function loginTokenCurrent(user: UserRecord): boolean {
  return (user.login_token_at ?? 0) >= Math.max(user.sessions_valid_after, user.api_tokens_valid_after);
}
