import type {
  FastifyContextConfig,
  FastifyInstance,
  FastifyRequest,
  onRequestHookHandler,
  onSendHookHandler,
} from 'fastify';
import { hasAnyScope, messages, scopesForRoles, sessionEndHeader, type Scope } from '@bathylog/shared';
import { AppError, diskFullError } from '../lib/app-error.js';
import { RateLimiter } from '../lib/rate-limiter.js';
import { nowSeconds, verifiedTokenIfKnown, verifyToken, type TokenClaims, type VerifyFailure } from '../lib/jwt.js';
import type { Kysely } from 'kysely';
import type { AppContext } from '../context.js';
import type { DeviceKeyRecord, UserRecord } from '../db/records.js';
import type { DB } from '../db/schema.js';
import { hashDeviceKey, isDeviceKeyShaped } from '../lib/device-key-format.js';
import { renewSessionCookie } from './session-cookie.js';
import { SessionRenewals } from './session-tokens.js';

/**
 * The users and device keys authentication reads and marks. The users and device-keys modules
 * provide them (`ctx.callers`, put together in app.ts), so this plugin imports no module.
 */
export interface CallerStore {
  /** The user a token names, through the user cache (modules/users/user-cache.ts). */
  user(db: Kysely<DB>, id: string): Promise<UserRecord | undefined>;
  /** The user if the cache holds it now, without waiting. */
  cachedUser(db: Kysely<DB>, id: string): UserRecord | undefined;
  markLogin(db: Kysely<DB>, id: string, at: number): Promise<void>;
  /** The device key with this hash, revoked and expired ones included. */
  deviceKey(db: Kysely<DB>, hash: string): Promise<DeviceKeyRecord | undefined>;
  markKeyUsed(db: Kysely<DB>, id: string, at: number, address: string | null): Promise<void>;
  /**
   * Every cruise's and lowering's archive state at `now` (epoch ms) for an archive reader; `member`
   * is a signed-in user's id (their access lists open records to them), null for the visitor and
   * device keys.
   */
  archiveView(db: Kysely<DB>, now: number, member: string | null): Promise<ArchiveView>;
}

/**
 * What the access rule asks of the public archive at one moment (modules/access/archive.ts makes
 * it): each cruise's and lowering's state for an anonymous visitor, and the event times to hide.
 */
export interface ArchiveView {
  state(kind: 'cruise' | 'lowering', id: string): 'closed' | 'stub' | 'open';
  setting(kind: 'cruise' | 'lowering', id: string): { isPublic: boolean; embargoUntil: number | null };
  listed(kind: 'cruise' | 'lowering'): string[];
  hiddenWindows(): { lo: number; hi: number }[];
  hiddenByOrigin(): {
    shared: { lo: number; hi: number }[];
    scoped: { lo: number; hi: number; origin: string | null }[];
  };
}

/**
 * The caller of an authenticated request. The device key is re-read from the database every
 * time, the user through a cache that every change to a user clears (modules/users/user-cache.ts). For a device key, `user` describes the key (its id and name, its roles) so that
 * every service treats it as a user with exactly those roles; `key` says it is one.
 */
export interface AuthContext {
  user: UserRecord;
  claims: TokenClaims;
  scopes: string[];
  isAdmin: boolean;
  /** Set when the caller used a device key. */
  key: DeviceKeyRecord | null;
  /** A fresh browser session for the caller: in its cookie, or the `x-bathylog-token` header. */
  renewedToken?: string;
  /** The route called (`PATCH /sealog-server/api/v1/events/:id`), for the audit trail. */
  route?: string;
  /**
   * Set for an archive reader (the anonymous visitor, and with the archive on every caller that
   * `readsArchive`): every record's archive state for this caller at the time of the request, which
   * the access rule follows (modules/access/archive.ts).
   */
  archive?: ArchiveView;
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
    /**
     * With the public archive on, a request without a token reads as the anonymous archive
     * visitor instead of being refused (docs/public-archive.md). Only reads may say so.
     */
    archive?: true;
  }
}

function unauthorized(message: string, extraHeaders: Record<string, string> = {}) {
  return new AppError('UNAUTHORIZED', message, {
    headers: { 'www-authenticate': `Token error="${message}"`, ...extraHeaders },
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

/** What a plain `Bearer <token>` header must not hold after its scheme to be the token as it is. */
const needsCleaning = /\s|bearer/i;

/** Token from `?token=`, then `Authorization` (with or without Bearer), then the `token` cookie. */
export function tokenFromRequest(request: Pick<FastifyRequest, 'query' | 'headers'>): string | undefined {
  const q = (request.query as Record<string, unknown> | undefined)?.token;
  if (typeof q === 'string') return q;
  const header = request.headers.authorization;
  if (header) {
    // Sealog's reading removes every "bearer" (any case) and all white space; a plain
    // `Bearer <token>` gives the same without building two strings.
    if (header.startsWith('Bearer ')) {
      const rest = header.slice(7);
      if (!needsCleaning.test(rest)) return rest;
    }
    return header.replace(/bearer/gi, '').replace(/\s+/g, '');
  }
  return tokenFromCookie(request.headers.cookie);
}

/**
 * False for what clients without a token put in its place: the WHOI client browsing anonymously
 * sends `Authorization: undefined`, others `Bearer null` or nothing after the scheme.
 */
function isCredential(token: string | undefined): token is string {
  return token !== undefined && token !== '' && token !== 'undefined' && token !== 'null';
}

/**
 * Whether the request would be authenticated by the browser's session cookie: it carries the
 * cookie and neither `?token=` nor an Authorization header, which take precedence over it.
 */
export function authenticatedByCookie(request: Pick<FastifyRequest, 'query' | 'headers'>): boolean {
  if (request.headers.authorization) return false;
  if (typeof (request.query as Record<string, unknown> | undefined)?.token === 'string') return false;
  return tokenFromCookie(request.headers.cookie) !== undefined;
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

/**
 * Whether a signed-in caller reads the public archive rather than the whole server
 * (docs/public-archive.md#who-reads-the-archive): with the archive on, everyone but admins and the
 * holders of a role the deployment grants (`archiveReaderRoles`). Device keys always do: a key is
 * a bot on no access list, and a role copied onto a key must not open what the archive closes.
 */
export function readsArchive(
  config: Pick<AppContext['config'], 'publicArchive' | 'archiveReaderRoles'>,
  auth: AuthContext,
): boolean {
  if (!config.publicArchive || auth.isAdmin) return false;
  if (auth.key) return true;
  return !auth.user.roles.some((r) => (config.archiveReaderRoles as readonly string[]).includes(r));
}

/** Marks a signed-in archive reader with its archive view (`readsArchive`); others unchanged. */
export async function withArchive(ctx: AppContext, auth: AuthContext): Promise<AuthContext> {
  if (auth.archive || !readsArchive(ctx.config, auth)) return auth;
  auth.archive = await ctx.callers.archiveView(ctx.database.db, ctx.now(), auth.key ? null : auth.user.id);
  return auth;
}

/**
 * The anonymous archive visitor of one request: no roles, no scopes, and the archive state of
 * every record as of now (the server clock), so an embargo that has passed is open at once.
 */
export async function archiveVisitor(ctx: AppContext): Promise<AuthContext> {
  const view = await ctx.callers.archiveView(ctx.database.db, ctx.now(), null);
  const visitor = standInCaller(
    {
      id: 'archive-visitor',
      username: 'archive visitor',
      fullname: 'Public archive visitor',
      email: '',
      roles: [],
      system_user: false,
      last_login: 0,
    },
    { iat: 0, key: null },
  );
  return { ...visitor, archive: view };
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
  const { db } = ctx.database;
  const key = await ctx.callers.deviceKey(db, hashDeviceKey(token));
  if (!key) throw unauthorized(messages.invalidCredentials);
  if (key.revoked_at !== null) throw unauthorized(messages.deviceKeyRevoked);
  const now = Date.now();
  if (key.expires_at !== null && key.expires_at <= now) throw unauthorized(messages.deviceKeyExpired);
  if (key.last_used_at === null || now - key.last_used_at > lastLoginEveryMs || key.last_used_address !== address) {
    await bookkeeping(ctx, () => ctx.callers.markKeyUsed(db, key.id, now, address));
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

function tokenFailure(reason: VerifyFailure): AppError {
  return unauthorized(
    reason === 'missing'
      ? messages.missingAuth
      : reason === 'format'
        ? messages.invalidTokenFormat
        : reason === 'expired'
          ? messages.sessionExpired
          : messages.invalidToken,
  );
}

/**
 * The checks on a verified JWT's user, made on every request
 * (docs/wire.md#checks-on-every-request): the user exists, is
 * enabled, holds exactly the roles in the token, and the token is newer than the user's last
 * revocation.
 */
function userCaller(claims: TokenClaims, user: UserRecord | undefined): AuthContext {
  if (!user || user.disabled || claims.roles.length === 0) throw unauthorized(messages.invalidCredentials);
  // Sealog's answer, and a header that tells our client why (it shows the reason on the login screen).
  if (!sameRoles(user.roles, claims.roles)) {
    throw unauthorized(messages.invalidCredentials, { [sessionEndHeader]: 'roles-changed' });
  }
  const isSession = claims.exp !== undefined;
  if (claims.iat < (isSession ? user.sessions_valid_after : user.api_tokens_valid_after)) {
    throw unauthorized(messages.tokenRevoked);
  }
  const scopes = scopesForRoles(user.roles);
  return { user, claims, scopes, isAdmin: scopes.includes('admin'), key: null };
}

/**
 * Verifies a token as every REST request and websocket hello does. A device key is looked up by
 * its hash. A JWT: signature and expiry, then the checks of `userCaller`.
 */
export async function authenticateToken(
  ctx: AppContext,
  token: string | undefined,
  address: string | null = null,
): Promise<AuthContext> {
  if (token && isDeviceKeyShaped(token)) return authenticateKey(ctx, token, address);
  const result = await verifyToken(token, ctx.secret);
  if (!result.ok) throw tokenFailure(result.reason);
  const { db } = ctx.database;
  const auth = userCaller(result.claims, await ctx.callers.user(db, result.claims.id));
  const now = Date.now();
  if (now - auth.user.last_login > lastLoginEveryMs) {
    await bookkeeping(ctx, () => ctx.callers.markLogin(db, auth.user.id, now));
    auth.user.last_login = now;
  }
  return auth;
}

/**
 * `authenticateToken` without waiting, when it needs nothing it would wait for (docs/performance.md#per-request: most
 * requests of a session): a token whose signature was checked before and a user in the user
 * cache, with no last-login mark due. The same checks, the same errors; undefined otherwise.
 */
function authenticateCached(ctx: AppContext, token: string | undefined): AuthContext | undefined {
  if (!token || isDeviceKeyShaped(token)) return undefined;
  const result = verifiedTokenIfKnown(token, ctx.secret);
  if (!result) return undefined;
  if (!result.ok) throw tokenFailure(result.reason);
  const user = ctx.callers.cachedUser(ctx.database.db, result.claims.id);
  if (!user || Date.now() - user.last_login > lastLoginEveryMs) return undefined;
  return userCaller(result.claims, user);
}

/** A browser session older than the renewal age gets a fresh token (sliding expiry). */
function renewalDue(ctx: AppContext, auth: AuthContext): boolean {
  const { exp, iat } = auth.claims;
  return exp !== undefined && !auth.key && nowSeconds() - iat >= ctx.config.sessions.renewAfterSeconds;
}

/** Methods that change something (rate limits, the cross-site guard). */
export const writeMethods: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

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

/**
 * Rate limits and authentication. Writes that name no caller (login, register, password reset)
 * are limited per address; authenticated writes only per caller (device key, or user for a
 * token), and only when `writeRateLimit.perKey` is set: imports and bots post one event per
 * request and must not lose any. Each route gets its own onRequest hook, made when the route is
 * registered with what it needs (write or not, its `auth` and `scopes`), so a request reads no
 * route options (each read of `request.routeOptions` builds a new object) and a route without
 * either runs nothing; likewise only authenticated routes get the onSend hook that hands out a
 * renewed session. Call before any route is registered: encapsulated plugins inherit it.
 */
export function registerAuth(app: FastifyInstance, ctx: AppContext): void {
  const perAddress = new RateLimiter(ctx.config.writeRateLimit.perAddress);
  const perCaller = new RateLimiter(ctx.config.writeRateLimit.perKey);
  const limitsCallers = ctx.config.writeRateLimit.perKey > 0;
  const renewals = new SessionRenewals(ctx);
  app.decorateRequest('auth', null);
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const mayWrite = route.url.startsWith('/sealog-server/') && methods.some((m) => writeMethods.has(m));
    const config = route.config as FastifyContextConfig | undefined;
    const mode = config?.auth;
    if (!mayWrite && !mode) return;
    const scopes = config?.scopes;
    const routeName = ` ${route.url}`;
    if (config?.archive && methods.some((m) => writeMethods.has(m))) {
      // The visitor never writes: a write route admitting it is a server bug, refused at start.
      throw new Error(`${methods.join(',')} ${route.url}: only reads admit the archive visitor`);
    }
    const admitsVisitor = config?.archive === true && ctx.config.publicArchive;
    const archiveOn = ctx.config.publicArchive;

    /** What follows authentication; true when it is complete without waiting. */
    const authorize = (
      request: FastifyRequest,
      auth: AuthContext,
      isWrite: boolean,
      token: string | undefined,
    ): boolean => {
      request.auth = auth;
      auth.route = request.method + routeName;
      if (isWrite && limitsCallers) {
        const wait = perCaller.take(auth.key ? `key:${auth.key.id}` : `user:${auth.user.id}`);
        if (wait > 0) throw tooManyRequests(wait);
      }
      if (scopes && !hasAnyScope(auth.scopes, scopes)) throw new AppError('FORBIDDEN', messages.insufficientScope);
      if (!renewalDue(ctx, auth)) return true;
      // Renewed once per token: later requests with the old token are handed the same new one.
      const renewed = renewals.known(token, auth.user);
      if (renewed) auth.renewedToken = renewed;
      return renewed !== undefined;
    };

    /** The checks that need no waiting; true when the request may go on at once. */
    const checkNow = (request: FastifyRequest, isWrite: boolean, token: string | undefined): boolean => {
      if (!mode || (mode === 'optional' && !token)) {
        // Only a request that names no caller is counted by its address: vessel bots and people
        // share one address and often one token, so authenticated writes are never refused for it.
        if (isWrite) {
          const wait = perAddress.take(request.ip);
          if (wait > 0) throw tooManyRequests(wait);
        }
        return true;
      }
      const cached = authenticateCached(ctx, token);
      return cached !== undefined && authorize(request, cached, isWrite, token);
    };

    const hook: onRequestHookHandler = (request, _reply, done) => {
      const isWrite = mayWrite && writeMethods.has(request.method);
      let token = mode ? tokenFromRequest(request) : undefined;
      // Where anonymous reading is allowed, a header that names no credential names no caller
      // (docs/sealog-clients.md#anonymous-browsing); elsewhere it is refused like any bad token.
      if ((admitsVisitor || mode === 'optional') && !isCredential(token)) token = undefined;
      if (admitsVisitor && !token) {
        archiveVisitor(ctx).then((visitor) => {
          request.auth = visitor;
          done();
        }, done);
        return;
      }
      let ready: boolean;
      try {
        ready = checkNow(request, isWrite, token);
      } catch (err) {
        return done(err as Error);
      }
      const archiveReader = request.auth && archiveOn && readsArchive(ctx.config, request.auth);
      if (ready && !archiveReader) return done();
      void (async () => {
        // Not in the caches, or a session due for renewal (then `request.auth` is set), or an
        // archive reader whose view is read now.
        let auth = request.auth;
        if (!auth) {
          auth = await authenticateToken(ctx, token, request.ip);
          ready = authorize(request, auth, isWrite, token);
        }
        if (archiveOn) await withArchive(ctx, auth);
        if (!ready) auth.renewedToken = await renewals.renew(token, auth.user);
      })().then(() => done(), done);
    };
    if (Array.isArray(route.onRequest)) route.onRequest = [...route.onRequest, hook];
    else route.onRequest = route.onRequest ? [route.onRequest, hook] : [hook];
    // Only an authenticated route renews a session.
    if (!mode) return;
    if (Array.isArray(route.onSend)) route.onSend = [...route.onSend, sendRenewedToken];
    else route.onSend = route.onSend ? [route.onSend, sendRenewedToken] : [sendRenewedToken];
  });
  const sendRenewedToken: onSendHookHandler = (request, reply, payload, done) => {
    const renewed = request.auth?.renewedToken;
    if (renewed) {
      // A browser's cookie session is renewed in its cookie: the token never reaches page script.
      if (authenticatedByCookie(request)) renewSessionCookie(request, reply, ctx.config, renewed);
      else reply.header(renewedTokenHeader, renewed);
    }
    done(null, payload);
  };
}

/** The caller of a route declared with `auth: true`. */
export function caller(request: FastifyRequest): AuthContext {
  if (!request.auth) throw unauthorized(messages.missingAuth);
  return request.auth;
}
