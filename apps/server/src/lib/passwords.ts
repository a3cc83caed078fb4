import bcrypt from 'bcryptjs';

/** bcrypt cost 10, as Sealog stores them ($2a$10$…), so exported user records stay interchangeable. */
const cost = 10;

export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, cost);
}

export function checkPassword(password: string, hash: string): Promise<boolean> {
  return bcrypt.compare(password, hash);
}

/** The hash of a random password nobody knows, at the same cost as stored ones. */
const noUsersHash = '$2b$10$Z2wRGH7FfUXNlwzpy1hvbuzgE3WUAVbrScm8JWt.J/Tx7WACfmBFG';

/**
 * The work of a password check when there is no user to check against, so a login for an unknown
 * username takes as long as one with a wrong password and the answer time tells no one which
 * usernames exist. Always false.
 */
export async function checkPasswordOfNoUser(password: string): Promise<false> {
  await bcrypt.compare(password, noUsersHash);
  return false;
}
