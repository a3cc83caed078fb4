import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { randomAlphanumeric } from './random.js';

/**
 * The Sealog loginToken (20 characters over [A-Za-z0-9]): a password-less login for kiosks and
 * embedding frames. The database keeps its SHA-256 hash, which login looks up, and a copy sealed
 * with a key derived from the server secret (AES-256-GCM), so GET users/{id}/loginToken can show
 * the same token again; a copy that cannot be opened (none yet, another secret) is replaced by a
 * new token on that request. A database dump alone therefore holds no usable login token.
 */
export const loginTokenLength = 20;

export function hashLoginToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

function keyOf(secret: string): Buffer {
  return createHash('sha256').update(`bathylog login token\0${secret}`, 'utf8').digest();
}

const sealedPrefix = 'v1.';

export function sealLoginToken(token: string, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(secret), iv);
  const body = Buffer.concat([cipher.update(token, 'utf8'), cipher.final()]);
  return sealedPrefix + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

/** The token in a sealed copy, or null when it cannot be opened with this secret. */
export function openLoginToken(sealed: string, secret: string): string | null {
  if (!sealed.startsWith(sealedPrefix)) return null;
  const raw = Buffer.from(sealed.slice(sealedPrefix.length), 'base64url');
  if (raw.length < 29) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyOf(secret), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}

/** A new token with what the database keeps of it. */
export function newLoginToken(secret: string): { token: string; hash: string; sealed: string } {
  const token = randomAlphanumeric(loginTokenLength);
  return { token, hash: hashLoginToken(token), sealed: sealLoginToken(token, secret) };
}

/**
 * A hash no token has (of a longer random string nobody keeps): a user's login token before it is
 * first shown, and after it is revoked.
 */
export function unusableLoginTokenHash(): string {
  return hashLoginToken(randomAlphanumeric(40));
}
