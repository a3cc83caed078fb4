import type { FastifyInstance, FastifyRequest } from 'fastify';
import { hasAnyScope, messages, scopesForRoles, type Scope } from '@bathylog/shared';
import { AppError, diskFullError } from '../lib/app-error.js';
import { RateLimiter } from '../lib/rate-limiter.js';
import { nowSeconds, verifyToken, type TokenClaims } from '../lib/jwt.js';
import type { AppContext } from '../context.js';
import { issueSession } from '../modules/auth/tokens.js';
import { hashDeviceKey, isDeviceKeyShaped } from '../modules/device-keys/device-key-format.js';
import { DeviceKeysRepository, type DeviceKeyRecord } from '../modules/device-keys/device-keys.repository.js';
import { UsersRepository, type UserRecord } from '../modules/users/users.repository.js';

/**
 * The caller of an authenticated request. The device key is re-read from the database every
 * time, the user through a cache that every change to a user clears (users/user-cache.ts). For a device key, `user` describes the key (its id and name, its roles) so that
 * every service treats it as a user with exactly those roles; `key` says it is one.
 */
export interface AuthContext {
  user: UserRecord;
  claims: TokenClaims;
  scopes: string[];
  isAdmin: boolean;
  /** Set when the caller used a device key. */
  key: DeviceKeyRecord | null;
  /** A fresh browser session for the caller, sent back in the `x-bathylog-token` header. */
  renewedToken?: string;
  /** The route called (`PATCH /sealog-server/api/v1/events/:id`), for the audit trail. */
  route?: string;
}

/** Response header carrying a renewed session token; the web client swaps it in silently. */
export const renewedTokenHeader = 'x-bathylog-token';

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
  }
  interface FastifyContextConfig {
    /** true: a valid token is required; 'optional': read it when present. */
    auth?: boolean | 'optional';
    /** The caller needs at least one of these scopes. */
    scopes?: readonly Scope[];
  }
}

function unauthorized(message: string) {
  return new AppError('UNAUTHORIZED', message, {
    headers: { 'www-authenticate': `Token error="${message}"` },
    attributes: { error: message },
  });
}

/** The `token` cookie of a request (the web client's session), if any. */
export function tokenFromCookie(header: string | undefined): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === 'token') {
      try {
        return decodeURIComponent(v.join('=')) || undefined;
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/** Token from `?token=`, then `Authorization` (with or without Bearer), then the `token` cookie. */
export function tokenFromRequest(request: Pick<FastifyRequest, 'query' | 'headers'>): string | undefined {
  const q = (request.query as Record<string, unknown> | undefined)?.token;
  if (typeof q === 'string') return q;
  const header = request.headers.authorization;
  if (header) return header.replace(/bearer/gi, '').replace(/\s+/g, '');
  return tokenFromCookie(request.headers.cookie);
}

const lastLoginEveryMs = 60_000;

/**
 * A caller that is not a stored user (a device key, the command line): a user record with the
 * given name and roles, signed by nobody; `iat` is when its authority began (seconds).
 */
export function standInCaller(
  who: Pick<UserRecord, 'id' | 'username' | 'fullname' | 'email' | 'roles' | 'system_user' | 'last_login'>,
  extra: { iat: number; key: DeviceKeyRecord | null; route?: string },
): AuthContext {
  const scopes = scopesForRoles(who.roles);
  const user: UserRecord = {
    ...who,
    password: '',
    disabled: false,
    login_token: '',
    reset_password_token: null,
    reset_password_expires: null,
    sessions_valid_after: 0,
    api_tokens_valid_after: 0,
  };
  return {
    user,
    claims: { id: who.id, scope: scopes, roles: who.roles, iat: extra.iat },
    scopes,
    isAdmin: scopes.includes('admin'),
    key: extra.key,
    ...(extra.route ? { route: extra.route } : {}),
  };
}

/** A device key as the caller of a request: a user with the key's name and roles. */
function keyCaller(key: DeviceKeyRecord): AuthContext {
  return standInCaller(
    {
      id: key.id,
      username: key.name,
      fullname: key.name,
      email: '',
      roles: key.roles,
      system_user: false,
      last_login: key.last_used_at ?? 0,
    },
    { iat: Math.floor(key.created_at / 1000), key },
  );
}

/**
 * Last-use marks are bookkeeping: on a full disk they are skipped (and logged), so reading keeps
 * working while writes answer 507.
 */
async function bookkeeping(ctx: AppContext, write: () => Promise<unknown>): Promise<void> {
  try {
    await write();
  } catch (err) {
    if (!diskFullError(err)) throw err;
    ctx.log.warn('disk full: last-use mark not stored');
  }
}

async function authenticateKey(ctx: AppContext, token: string, address: string | null): Promise<AuthContext> {
  const repo = new DeviceKeysRepository(ctx.database.db);
  const key = await repo.findByHash(hashDeviceKey(token));
  if (!key) throw unauthorized(messages.invalidCredentials);
  if (key.revoked_at !== null) throw unauthorized(messages.deviceKeyRevoked);
  const now = Date.now();
  if (key.expires_at !== null && key.expires_at <= now) throw unauthorized(messages.deviceKeyExpired);
  if (key.last_used_at === null || now - key.last_used_at > lastLoginEveryMs || key.last_used_address !== address) {
    await bookkeeping(ctx, () => repo.markUsed(key.id, now, address));
    key.last_used_at = now;
    key.last_used_address = address;
  }
  return keyCaller(key);
}

/** The same roles in the same order (Sealog compares them as they were issued). */
function sameRoles(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Verifies a token as every REST request and websocket hello does. A device key is looked up by
 * its hash. A JWT: signature and expiry, then the user must exist, be enabled, hold exactly the
 * roles in the token (Sealog §3.3), and the token must be newer than the user's last revocation.
 */
export async function authenticateToken(
  ctx: AppContext,
  token: string | undefined,
  address: string | null = null,
): Promise<AuthContext> {
  if (token && isDeviceKeyShaped(token)) return authenticateKey(ctx, token, address);
  const result = await verifyToken(token, ctx.secret);
  if (!result.ok) {
    throw unauthorized(
      result.reason === 'missing'
        ? messages.missingAuth
        : result.reason === 'format'
          ? messages.invalidTokenFormat
          : result.reason === 'expired'
            ? messages.sessionExpired
            : messages.invalidToken,
    );
  }
  const users = new UsersRepository(ctx.database.db);
  const user = await users.findForAuth(result.claims.id);
  if (!user || user.disabled || result.claims.roles.length === 0 || !sameRoles(user.roles, result.claims.roles)) {
    throw unauthorized(messages.invalidCredentials);
  }
  const isSession = result.claims.exp !== undefined;
  if (result.claims.iat < (isSession ? user.sessions_valid_after : user.api_tokens_valid_after)) {
    throw unauthorized(messages.tokenRevoked);
  }
  const now = Date.now();
  if (now - user.last_login > lastLoginEveryMs) {
    await bookkeeping(ctx, () => users.update(user.id, { last_login: now }));
    user.last_login = now;
  }
  const scopes = scopesForRoles(user.roles);
  return { user, claims: result.claims, scopes, isAdmin: scopes.includes('admin'), key: null };
}

/** A browser session older than the renewal age gets a fresh token (sliding expiry). */
async function renewIfDue(ctx: AppContext, auth: AuthContext): Promise<void> {
  const { exp, iat } = auth.claims;
  if (exp === undefined || auth.key) return;
  if (nowSeconds() - iat < ctx.config.sessions.renewAfterSeconds) return;
  auth.renewedToken = await issueSession(ctx, auth.user);
}

const writeMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function tooManyRequests(waitMs: number): AppError {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  return new AppError(
    'TOO_MANY_REQUESTS',
    `Too many requests, try again in ${seconds} second${seconds > 1 ? 's' : ''}`,
    {
      headers: { 'retry-after': String(seconds) },
    },
  );
}

export function registerAuth(app: FastifyInstance, ctx: AppContext): void {
  const perAddress = new RateLimiter(ctx.config.writeRateLimit.perAddress);
  const perKey = new RateLimiter(ctx.config.writeRateLimit.perKey);
  app.decorateRequest('auth', null);
  app.addHook('onRequest', async (request) => {
    const isWrite = writeMethods.has(request.method) && request.url.startsWith('/sealog-server/');
    if (isWrite) {
      const wait = perAddress.take(request.ip);
      if (wait > 0) throw tooManyRequests(wait);
    }
    const config = request.routeOptions.config;
    if (!config?.auth) return;
    const token = tokenFromRequest(request);
    if (config.auth === 'optional' && !token) return;
    request.auth = await authenticateToken(ctx, token, request.ip);
    request.auth.route = `${request.method} ${request.routeOptions.url ?? request.url}`;
    if (isWrite && request.auth.key) {
      const wait = perKey.take(request.auth.key.id);
      if (wait > 0) throw tooManyRequests(wait);
    }
    if (config.scopes && !hasAnyScope(request.auth.scopes, config.scopes)) {
      throw new AppError('FORBIDDEN', messages.insufficientScope);
    }
    await renewIfDue(ctx, request.auth);
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.auth?.renewedToken) reply.header(renewedTokenHeader, request.auth.renewedToken);
    done(null, payload);
  });
}

/** The caller of a route declared with `auth: true`. */
export function caller(request: FastifyRequest): AuthContext {
  if (!request.auth) throw unauthorized(messages.missingAuth);
  return request.auth;
}
