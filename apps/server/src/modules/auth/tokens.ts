import { scopesForRoles } from '@bathylog/shared';
import type { Kysely, Transaction } from 'kysely';
import type { AppContext } from '../../context.js';
import type { DB } from '../../db/schema.js';
import { nowSeconds, signToken } from '../../lib/jwt.js';
import { unusableLoginTokenHash } from '../../lib/login-token.js';
import { UsersRepository, type UserRecord } from '../users/users.repository.js';

/**
 * The three kinds of tokens (docs/security.md#browser-session): browser sessions (expiring, renewed
 * while used), the Sealog-compatible API token (long-lived), and device keys (device-keys module).
 * Revocation marks are epoch seconds on the user: a token whose `iat` is older is refused. A
 * token issued after a revocation in the same second gets the mark as its `iat`, so it stays valid.
 */

/** A browser session for the user: expires after the configured lifetime. */
export function issueSession(ctx: AppContext, user: UserRecord): Promise<string> {
  const iat = Math.max(nowSeconds(), user.sessions_valid_after);
  return signToken(
    {
      id: user.id,
      scope: scopesForRoles(user.roles),
      roles: user.roles,
      iat,
      exp: nowSeconds() + ctx.config.sessions.lifetimeSeconds,
    },
    ctx.secret,
  );
}

/** The Sealog API token (GET users/{id}/token, Show API Token): the same claims, no expiry. */
export function issueApiToken(ctx: AppContext, user: UserRecord): Promise<string> {
  const iat = Math.max(nowSeconds(), user.api_tokens_valid_after);
  return signToken({ id: user.id, scope: scopesForRoles(user.roles), roles: user.roles, iat }, ctx.secret);
}

/**
 * Ends the user's browser sessions and login token (password change or reset); with `apiTokens`,
 * also the API tokens (password change or reset, "sign out everywhere"). The new mark lies after
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
