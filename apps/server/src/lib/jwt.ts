import { createHmac, timingSafeEqual } from 'node:crypto';

/** HS256 JSON Web Tokens with the claims Sealog scripts read: {id, scope, roles, iat}. No expiry, as in Sealog. */
export interface TokenClaims {
  id: string;
  scope: string[];
  roles: string[];
  iat: number;
}

const header = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');

function sign(input: string, secret: string): string {
  return createHmac('sha256', secret).update(input).digest('base64url');
}

export function signToken(claims: Omit<TokenClaims, 'iat'> & { iat?: number }, secret: string): string {
  const body = {
    id: claims.id,
    scope: claims.scope,
    roles: claims.roles,
    iat: claims.iat ?? Math.floor(Date.now() / 1000),
  };
  const payload = Buffer.from(JSON.stringify(body)).toString('base64url');
  return `${header}.${payload}.${sign(`${header}.${payload}`, secret)}`;
}

export type VerifyResult =
  { ok: true; claims: TokenClaims } | { ok: false; reason: 'missing' | 'format' | 'signature' };

/** Distinguishes the three Sealog failure texts: missing, bad format, bad signature. */
export function verifyToken(token: string | undefined | null, secret: string): VerifyResult {
  if (!token) return { ok: false, reason: 'missing' };
  const parts = token.split('.');
  if (parts.length !== 3) return { ok: false, reason: 'missing' };
  const [h, p, s] = parts as [string, string, string];
  let claims: unknown;
  try {
    const headerJson = JSON.parse(Buffer.from(h, 'base64url').toString('utf8')) as { alg?: string };
    if (headerJson.alg !== 'HS256') return { ok: false, reason: 'format' };
    claims = JSON.parse(Buffer.from(p, 'base64url').toString('utf8'));
  } catch {
    return { ok: false, reason: 'format' };
  }
  const expected = Buffer.from(sign(`${h}.${p}`, secret));
  const given = Buffer.from(s);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return { ok: false, reason: 'signature' };
  const c = claims as Partial<TokenClaims>;
  if (typeof c !== 'object' || c === null || typeof c.id !== 'string') return { ok: false, reason: 'format' };
  return {
    ok: true,
    claims: {
      id: c.id,
      scope: Array.isArray(c.scope) ? c.scope.map(String) : [],
      roles: Array.isArray(c.roles) ? c.roles.map(String) : [],
      iat: typeof c.iat === 'number' ? c.iat : 0,
    },
  };
}
