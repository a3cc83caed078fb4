import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * Login tokens stop being stored in clear: `login_token` now holds the SHA-256 hash (hex) of the
 * token, `login_token_sealed` a copy the server can open with its secret (written when the token
 * is next shown; existing tokens keep working but are replaced the first time they are read), and
 * `login_token_at` when the token was issued (epoch seconds), so a token older than the user's
 * revocation marks is refused. Existing tokens count as issued at 0.
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema.alterTable('users').addColumn('login_token_sealed', 'text').execute();
  await db.schema
    .alterTable('users')
    .addColumn('login_token_at', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  const rows = await sql<{ id: string; login_token: string }>`select id, login_token from users`.execute(db);
  for (const row of rows.rows) {
    const hash = createHash('sha256').update(row.login_token, 'utf8').digest('hex');
    await sql`update users set login_token = ${hash} where id = ${row.id}`.execute(db);
  }
}
