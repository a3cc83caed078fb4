import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { DB, UsersTable } from '../../db/schema.js';
import { parseJson } from '../../lib/json.js';
import { hashLoginToken } from '../../lib/login-token.js';
import type { UserRecord } from '../../db/records.js';
import { userCache } from './user-cache.js';

export type { UserRecord };

export type UserPatch = Partial<Omit<UserRecord, 'id'>>;

function fromRow(row: Selectable<UsersTable>): UserRecord {
  return {
    ...row,
    roles: parseJson<string[]>(row.roles, []),
    system_user: !!row.system_user,
    disabled: !!row.disabled,
    last_login: Number(row.last_login),
    reset_password_expires: row.reset_password_expires === null ? null : Number(row.reset_password_expires),
    login_token_at: Number(row.login_token_at),
    sessions_valid_after: Number(row.sessions_valid_after),
    api_tokens_valid_after: Number(row.api_tokens_valid_after),
  };
}

function toRow(patch: UserPatch): Partial<UsersTable> {
  const { roles, system_user, disabled, ...rest } = patch;
  return {
    ...rest,
    ...(roles !== undefined ? { roles: JSON.stringify(roles) } : {}),
    ...(system_user !== undefined ? { system_user: system_user ? 1 : 0 } : {}),
    ...(disabled !== undefined ? { disabled: disabled ? 1 : 0 } : {}),
  };
}

export interface UserListQuery {
  systemUser?: boolean;
  sort: 'username' | 'last_login';
  offset?: number;
  limit?: number;
}

export class UsersRepository {
  constructor(private readonly db: Kysely<DB> | Transaction<DB>) {}

  /**
   * The user as authentication sees it: from the short-lived cache (user-cache.ts) when this is
   * the database's own handle, else read (and kept).
   */
  async findForAuth(id: string): Promise<UserRecord | undefined> {
    return userCache.load(this.db, id, () => this.findById(id));
  }

  async findById(id: string): Promise<UserRecord | undefined> {
    const row = await this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    return row && fromRow(row);
  }

  async findByUsername(username: string): Promise<UserRecord | undefined> {
    const row = await this.db.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirst();
    return row && fromRow(row);
  }

  async findByEmail(email: string): Promise<UserRecord | undefined> {
    const row = await this.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
    return row && fromRow(row);
  }

  /** Users whose email matches case-insensitively (login by email); oldest first, as emails are not unique. */
  async listByEmailInsensitive(email: string): Promise<UserRecord[]> {
    const rows = await this.db
      .selectFrom('users')
      .selectAll()
      .where(sql<string>`lower(email)`, '=', email.toLowerCase())
      .orderBy('id', 'asc')
      .limit(10)
      .execute();
    return rows.map(fromRow);
  }

  async findByLoginToken(token: string): Promise<UserRecord | undefined> {
    const row = await this.db
      .selectFrom('users')
      .selectAll()
      .where('login_token', '=', hashLoginToken(token))
      .executeTakeFirst();
    return row && fromRow(row);
  }

  /**
   * Replaces the user's login token if it is still `expectedHash` (two requests showing a new
   * token at once: only one wins, the other reads the winner's). True when it was replaced.
   */
  async replaceLoginToken(
    id: string,
    expectedHash: string,
    next: { login_token: string; login_token_sealed: string | null; login_token_at: number },
  ): Promise<boolean> {
    userCache.invalidate([id]);
    const result = await this.db
      .updateTable('users')
      .set(next)
      .where('id', '=', id)
      .where('login_token', '=', expectedHash)
      .executeTakeFirst();
    userCache.invalidate([id]);
    return Number(result.numUpdatedRows) > 0;
  }

  async findByResetToken(token: string): Promise<UserRecord | undefined> {
    const row = await this.db
      .selectFrom('users')
      .selectAll()
      .where('reset_password_token', '=', token)
      .executeTakeFirst();
    return row && fromRow(row);
  }

  async list(query: UserListQuery): Promise<UserRecord[]> {
    let q = this.db.selectFrom('users').selectAll();
    if (query.systemUser !== undefined) q = q.where('system_user', '=', query.systemUser ? 1 : 0);
    q = q.orderBy(query.sort, 'asc').orderBy('id', 'asc');
    if (query.limit !== undefined) q = q.limit(query.limit);
    if (query.offset)
      q = q.offset(query.offset).$if(query.limit === undefined, (qb) => qb.limit(Number.MAX_SAFE_INTEGER));
    return (await q.execute()).map(fromRow);
  }

  async count(): Promise<number> {
    const row = await this.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async insert(user: UserRecord): Promise<void> {
    await this.db
      .insertInto('users')
      .values(toRow(user) as UsersTable)
      .execute();
  }

  /**
   * A new password also ends any pending password-reset link, whichever route set the password,
   * so a link mailed before the change cannot undo it.
   */
  async update(id: string, patch: UserPatch): Promise<void> {
    const row = toRow(
      patch.password !== undefined ? { ...patch, reset_password_token: null, reset_password_expires: null } : patch,
    );
    if (Object.keys(row).length === 0) return;
    userCache.invalidate([id]);
    await this.db.updateTable('users').set(row).where('id', '=', id).execute();
    userCache.invalidate([id]);
  }

  async delete(id: string): Promise<number> {
    userCache.invalidate([id]);
    const result = await this.db.deleteFrom('users').where('id', '=', id).executeTakeFirst();
    userCache.invalidate([id]);
    return Number(result.numDeletedRows);
  }

  /** Deletes the given ids and returns how many went. */
  async deleteMany(ids: string[]): Promise<number> {
    if (ids.length === 0) return 0;
    userCache.invalidate(ids);
    const result = await this.db.deleteFrom('users').where('id', 'in', ids).executeTakeFirst();
    userCache.invalidate(ids);
    return Number(result.numDeletedRows);
  }
}
