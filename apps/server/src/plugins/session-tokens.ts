import { scopesForRoles } from '@bathylog/shared';
import type { AppContext } from '../context.js';
import type { UserRecord } from '../db/records.js';
import { nowSeconds, signToken } from '../lib/jwt.js';

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
