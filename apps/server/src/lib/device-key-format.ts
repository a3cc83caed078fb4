import { createHash, randomBytes } from 'node:crypto';

/** Device keys look like `bk_` + 43 base64url characters (256 random bits). */
export const deviceKeyPrefix = 'bk_';

export function newDeviceKey(): string {
  return `${deviceKeyPrefix}${randomBytes(32).toString('base64url')}`;
}

export function isDeviceKeyShaped(token: string): boolean {
  return token.startsWith(deviceKeyPrefix) && /^bk_[A-Za-z0-9_-]{43}$/.test(token);
}

/**
 * SHA-256 of the key (hex). The key carries 256 random bits, so a fast hash is enough: nothing
 * short of the key itself matches, and the database never holds the key.
 */
export function hashDeviceKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}
