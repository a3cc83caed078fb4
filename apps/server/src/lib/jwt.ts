import { SignJWT, errors, jwtVerify } from 'jose';

/**
 * HS256 JSON Web Tokens (signed and verified by `jose`) with the claims Sealog scripts read:
 * {id, scope, roles, iat}. Two kinds share the format:
 * - the Sealog-compatible API token (GET users/{id}/token, Show API Token): no expiry, as in Sealog;
 * - a browser session (POST auth/login): `exp` set, renewed while the client is used.
 */
export interface TokenClaims {
  id: string;
  scope: string[];
  roles: string[];
  iat: number;
  /** Epoch seconds; only browser sessions carry it. */
  exp?: number;
}

export type NewTokenClaims = Omit<TokenClaims, 'iat'> & { iat?: number };

const algorithm = 'HS256';

function keyOf(secret: string): Uint8Array {
  return new TextEncoder().encode(secret);
}

export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

export async function signToken(claims: NewTokenClaims, secret: string): Promise<string> {
  const jwt = new SignJWT({ id: claims.id, scope: claims.scope, roles: claims.roles })
    .setProtectedHeader({ alg: algorithm, typ: 'JWT' })
    .setIssuedAt(claims.iat ?? nowSeconds());
  if (claims.exp !== undefined) jwt.setExpirationTime(claims.exp);
  return jwt.sign(keyOf(secret));
}

export type VerifyFailure = 'missing' | 'format' | 'signature' | 'expired';
export type VerifyResult = { ok: true; claims: TokenClaims } | { ok: false; reason: VerifyFailure };

/**
 * Tokens whose signature has been checked, with their claims (verifying an HS256
 * signature through WebCrypto cost more than the rest of a small GET). A signature stays valid;
 * expiry is checked again on every use, exactly as `jwtVerify` checks it, and whether the user
 * still holds the token's roles is the caller's check, made every time.
 */
const verified = new Map<string, { secret: string; claims: TokenClaims }>();
const verifiedCacheSize = 2000;

function isExpired(claims: TokenClaims): boolean {
  return claims.exp !== undefined && claims.exp <= nowSeconds();
}

/**
 * What `verifyToken` answers for a token whose signature was checked before under this secret
 * (tests and a changed secret use others), without waiting; undefined for any other token.
 */
export function verifiedTokenIfKnown(token: string, secret: string): VerifyResult | undefined {
  const known = verified.get(token);
  if (known?.secret !== secret) return undefined;
  return isExpired(known.claims) ? { ok: false, reason: 'expired' } : { ok: true, claims: known.claims };
}

/** Distinguishes the Sealog failure texts (missing, bad format, bad signature) and an expired session. */
export async function verifyToken(token: string | undefined | null, secret: string): Promise<VerifyResult> {
  if (!token) return { ok: false, reason: 'missing' };
  const known = verifiedTokenIfKnown(token, secret);
  if (known) return known;
  if (token.split('.').length !== 3) return { ok: false, reason: 'missing' };
  let payload: Record<string, unknown>;
  try {
    // currentDate follows Date.now(), so tests with a fake clock see expiry as users would.
    ({ payload } = await jwtVerify(token, keyOf(secret), { algorithms: [algorithm], currentDate: new Date() }));
  } catch (err) {
    if (err instanceof errors.JWTExpired) return { ok: false, reason: 'expired' };
    if (err instanceof errors.JWSSignatureVerificationFailed) return { ok: false, reason: 'signature' };
    return { ok: false, reason: 'format' };
  }
  if (typeof payload.id !== 'string') return { ok: false, reason: 'format' };
  const claims: TokenClaims = Object.freeze({
    id: payload.id,
    scope: Object.freeze(Array.isArray(payload.scope) ? payload.scope.map(String) : []) as string[],
    roles: Object.freeze(Array.isArray(payload.roles) ? payload.roles.map(String) : []) as string[],
    iat: typeof payload.iat === 'number' ? payload.iat : 0,
    ...(typeof payload.exp === 'number' ? { exp: payload.exp } : {}),
  });
  if (verified.size >= verifiedCacheSize) verified.delete(verified.keys().next().value!);
  verified.delete(token);
  verified.set(token, { secret, claims });
  return { ok: true, claims };
}
