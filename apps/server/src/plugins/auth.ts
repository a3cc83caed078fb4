import type { FastifyInstance, FastifyRequest } from 'fastify';
import { hasAnyScope, messages, scopesForRoles, type Scope } from '@bathylog/shared';
import { AppError } from '../lib/app-error.js';
import { verifyToken, type TokenClaims } from '../lib/jwt.js';
import type { AppContext } from '../context.js';
import { UsersRepository, type UserRecord } from '../modules/users/users.repository.js';

/** The caller of an authenticated request. The user is re-read from the database every time. */
export interface AuthContext {
  user: UserRecord;
  claims: TokenClaims;
  scopes: string[];
  isAdmin: boolean;
}

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

function cookieToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === 'token') return decodeURIComponent(v.join('='));
  }
  return undefined;
}

/** Token from `?token=`, then `Authorization` (with or without Bearer), then the `token` cookie. */
export function tokenFromRequest(request: Pick<FastifyRequest, 'query' | 'headers'>): string | undefined {
  const q = (request.query as Record<string, unknown> | undefined)?.token;
  if (typeof q === 'string') return q;
  const header = request.headers.authorization;
  if (header) return header.replace(/bearer/gi, '').replace(/\s+/g, '');
  return cookieToken(request.headers.cookie);
}

const lastLoginEveryMs = 60_000;

/**
 * Verifies a token as every REST request and websocket hello does: signature, then the user
 * must exist, be enabled and hold exactly the roles in the token (Sealog §3.3).
 */
export async function authenticateToken(ctx: AppContext, token: string | undefined): Promise<AuthContext> {
  const result = verifyToken(token, ctx.secret);
  if (!result.ok) {
    throw unauthorized(
      result.reason === 'missing'
        ? messages.missingAuth
        : result.reason === 'format'
          ? messages.invalidTokenFormat
          : messages.invalidToken,
    );
  }
  const users = new UsersRepository(ctx.database.db);
  const user = await users.findById(result.claims.id);
  if (
    !user ||
    user.disabled ||
    result.claims.roles.length === 0 ||
    user.roles.join(',') !== result.claims.roles.join(',')
  ) {
    throw unauthorized(messages.invalidCredentials);
  }
  const now = Date.now();
  if (now - user.last_login > lastLoginEveryMs) {
    await users.update(user.id, { last_login: now });
    user.last_login = now;
  }
  const scopes = scopesForRoles(user.roles);
  return { user, claims: result.claims, scopes, isAdmin: scopes.includes('admin') };
}

export function registerAuth(app: FastifyInstance, ctx: AppContext): void {
  app.decorateRequest('auth', null);
  app.addHook('onRequest', async (request) => {
    const config = request.routeOptions.config;
    if (!config?.auth) return;
    const token = tokenFromRequest(request);
    if (config.auth === 'optional' && !token) return;
    request.auth = await authenticateToken(ctx, token);
    if (config.scopes && !hasAnyScope(request.auth.scopes, config.scopes)) {
      throw new AppError('FORBIDDEN', messages.insufficientScope);
    }
  });
}

/** The caller of a route declared with `auth: true`. */
export function caller(request: FastifyRequest): AuthContext {
  if (!request.auth) throw unauthorized(messages.missingAuth);
  return request.auth;
}
