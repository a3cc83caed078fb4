import bcrypt from 'bcryptjs';

/** bcrypt cost 10, as Sealog stores them ($2a$10$…), so exported user records stay interchangeable. */
const cost = 10;

export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, cost);
}

export function checkPassword(password: string, hash: string): Promise<boolean> {
  return bcrypt.compare(password, hash);
}
