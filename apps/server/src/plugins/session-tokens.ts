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

/** How long a session's renewal is handed again to requests still carrying the old token. */
const renewalReuseMs = 5 * 60_000;
/** Bound on the tokens remembered (the oldest are forgotten first). */
const renewalsRemembered = 10_000;

/**
 * Renewals of browser sessions, one per old token (docs/performance.md#per-request): a session older
 * than the renewal age is renewed on its first request, and the requests that still carry the old
 * token (those in flight, a client slow to swap it in, a script that ignores the header) are
 * handed the same new token without signing another, for a few minutes. The old token is checked
 * on every request as before (user, roles, revocation); only the signing is saved.
 */
export class SessionRenewals {
  private readonly entries = new Map<string, { at: number; token: string | null; pending: Promise<string> }>();

  constructor(private readonly ctx: AppContext) {}

  /** The renewal already made for this token, if it is ready and recent. */
  known(oldToken: string | undefined, user: UserRecord, now = Date.now()): string | undefined {
    if (!oldToken) return undefined;
    const entry = this.entries.get(oldToken);
    if (!entry || entry.token === null || now - entry.at >= renewalReuseMs) return undefined;
    return entry.at >= user.sessions_valid_after * 1000 ? entry.token : undefined;
  }

  /** A renewal for this token: the one being made or made recently, else a new one. */
  renew(oldToken: string | undefined, user: UserRecord, now = Date.now()): Promise<string> {
    if (!oldToken) return issueSession(this.ctx, user);
    const entry = this.entries.get(oldToken);
    if (entry && now - entry.at < renewalReuseMs && entry.at >= user.sessions_valid_after * 1000) return entry.pending;
    const made = { at: now, token: null as string | null, pending: issueSession(this.ctx, user) };
    made.pending.then(
      (token) => (made.token = token),
      () => this.entries.delete(oldToken),
    );
    this.entries.delete(oldToken);
    this.entries.set(oldToken, made);
    while (this.entries.size > renewalsRemembered) this.entries.delete(this.entries.keys().next().value!);
    return made.pending;
  }
}
