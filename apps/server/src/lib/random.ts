import { randomBytes, randomInt } from 'node:crypto';

const alphanumeric = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A random string over [A-Za-z0-9]; 20 characters is a Sealog loginToken. */
export function randomAlphanumeric(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += alphanumeric[randomInt(alphanumeric.length)];
  return out;
}

/** 40 hex characters: a password-reset token. */
export function randomHexToken(bytes = 20): string {
  return randomBytes(bytes).toString('hex');
}
