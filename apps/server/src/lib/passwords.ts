import { randomBytes } from 'node:crypto';
import bcrypt from 'bcryptjs';

/**
 * The bcrypt cost of passwords stored from now on: `passwordHashCost` (BATHYLOG_PASSWORD_HASH_COST),
 * set by buildApp at start-up. 10 by default, as Sealog stores them ($2a$10$…), so exported user
 * records stay interchangeable; a hash of any cost is checked at its own cost.
 */
let cost = 10;

export function setPasswordHashCost(value: number): void {
  cost = value;
}

export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, cost);
}

export function checkPassword(password: string, hash: string): Promise<boolean> {
  return bcrypt.compare(password, hash);
}

/** Per cost, the hash of a random password nobody knows (cost 10's made once, here). */
const noUsersHashes = new Map<number, Promise<string>>([
  [10, Promise.resolve('$2b$10$Z2wRGH7FfUXNlwzpy1hvbuzgE3WUAVbrScm8JWt.J/Tx7WACfmBFG')],
]);

/**
 * The work of a password check when there is no user to check against, at the cost stored
 * passwords get, so a login for an unknown username takes as long as one with a wrong password and
 * the answer time tells no one which usernames exist. Always false.
 */
export async function checkPasswordOfNoUser(password: string): Promise<false> {
  let hash = noUsersHashes.get(cost);
  if (!hash) {
    hash = bcrypt.hash(randomBytes(18).toString('base64'), cost);
    noUsersHashes.set(cost, hash);
  }
  await bcrypt.compare(password, await hash);
  return false;
}
