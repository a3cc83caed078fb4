import {
  isGuestAccount,
  isProtectedUsername,
  messages,
  newObjectId,
  toIso,
  type CreateUser,
  type UpdateUser,
  type User,
} from '@bathylog/shared';
import { accountTakenMessages } from '@bathylog/shared/rules/auth-messages';
import type { AppContext } from '../../context.js';
import { AppError } from '../../lib/app-error.js';
import { hashPassword } from '../../lib/passwords.js';
import { randomAlphanumeric, randomHexToken } from '../../lib/random.js';
import { hashLoginToken, newLoginToken, openLoginToken, unusableLoginTokenHash } from '../../lib/login-token.js';
import type { AuthContext } from '../../plugins/auth.js';
import { resetLinkBase, resetLinkText } from '../../lib/reset-link.js';
import { internalChannels } from '../../realtime/internal-channels.js';
import { AccessListsRepository } from '../access/access.repository.js';
import { issueApiToken, issueSession } from '../../plugins/session-tokens.js';
import { loginTokenCurrent, loginTokenIssuedAt, revokeTokens } from '../auth/tokens.js';
import { recordChange } from '../audit/audit.js';
import { UsersRepository, type UserRecord } from './users.repository.js';

const dayMs = 24 * 60 * 60 * 1000;

/** The public shape every user route returns (no password, tokens or reset fields). */
export function toPublicUser(u: UserRecord): User {
  return {
    id: u.id,
    username: u.username,
    fullname: u.fullname,
    email: u.email,
    last_login: toIso(u.last_login),
    roles: u.roles,
    system_user: u.system_user,
    disabled: u.disabled,
  };
}

export interface NewUserInput {
  id?: string;
  username: string;
  fullname: string;
  email: string;
  password: string;
  roles: string[];
  system_user?: boolean;
  disabled?: boolean;
  last_login?: number;
  reset?: { token: string; expires: number } | null;
}

/**
 * Only the seeded `guest` account (a system user; only admins make those) logs in without a
 * password ("Login as Guest"); see docs/security.md#password-changes-and-resets.
 */
export function mayLogInWithoutPassword(user: Pick<UserRecord, 'username' | 'system_user'>): boolean {
  return user.username === 'guest' && user.system_user;
}

/**
 * The password to store for one given through the Users form or the API: an empty one gives any
 * account but the guest a random password nobody knows, so it cannot log in until one is set
 * (the set-password link mailed on create, a reset, an admin), as an imported user.
 */
function passwordToStore(user: Pick<UserRecord, 'username' | 'system_user'>, password: string): string {
  return password === '' && !mayLogInWithoutPassword(user) ? randomAlphanumeric(24) : password;
}

/** Builds a stored user: hashed password; its loginToken is made when first shown. */
export async function buildUserRecord(input: NewUserInput): Promise<UserRecord> {
  return {
    id: input.id ?? newObjectId(),
    username: input.username,
    fullname: input.fullname,
    email: input.email,
    password: await hashPassword(input.password),
    roles: input.roles,
    system_user: input.system_user === true,
    disabled: input.disabled === true,
    last_login: input.last_login ?? 0,
    login_token: unusableLoginTokenHash(),
    login_token_sealed: null,
    login_token_at: 0,
    reset_password_token: input.reset?.token ?? null,
    reset_password_expires: input.reset?.expires ?? null,
    sessions_valid_after: 0,
    api_tokens_valid_after: 0,
  };
}

/**
 * User administration and its role rules (docs/roles-and-access.md#user-administration): admins manage everyone;
 * cruise managers manage regular users and grant only non-admin roles; admin, guest and pi stay.
 */
export class UsersService {
  constructor(private readonly ctx: AppContext) {}

  private get repo() {
    return new UsersRepository(this.ctx.database.db);
  }

  async list(
    caller: AuthContext,
    query: { system_user?: boolean; sort?: 'username' | 'last_login'; offset?: number; limit?: number },
  ) {
    const systemUser = caller.isAdmin ? query.system_user : false;
    const rows = await this.repo.list({
      ...(systemUser !== undefined ? { systemUser } : {}),
      sort: query.sort ?? 'username',
      ...(query.offset !== undefined ? { offset: query.offset } : {}),
      ...(query.limit !== undefined ? { limit: query.limit } : {}),
    });
    return rows.map(toPublicUser);
  }

  /**
   * The guest accounts the WHOI login page offers, before anyone signs in: only what the page
   * shows (id, username, fullname), never an address, role or login time.
   */
  async listGuests(): Promise<Array<Pick<User, 'id' | 'username' | 'fullname'>>> {
    const rows = await this.repo.list({ sort: 'username' });
    return rows.filter(isGuestAccount).map((u) => ({ id: u.id, username: u.username, fullname: u.fullname }));
  }

  async get(caller: AuthContext, id: string): Promise<User> {
    const user = await this.repo.findById(id);
    if (!user) throw new AppError('NOT_FOUND', `No record found for id: ${id}`);
    if (user.system_user && !caller.isAdmin && caller.user.id !== id) {
      throw new AppError('BAD_REQUEST', 'The requesting user is unauthorized to make that request');
    }
    return toPublicUser(user);
  }

  async create(caller: AuthContext, body: CreateUser): Promise<string> {
    if (!caller.isAdmin) {
      if (body.system_user) throw new AppError('UNAUTHORIZED', 'Only admins can create system users');
      if (body.roles.includes('admin')) throw new AppError('BAD_REQUEST', 'Only admins create other admins');
      if (body.disabled) throw new AppError('BAD_REQUEST', 'Only admins can enable/disabled users');
    }
    const repo = this.repo;
    if (body.id && (await repo.findById(body.id))) throw new AppError('BAD_REQUEST', messages.duplicateUser);
    if (await repo.findByUsername(body.username)) throw new AppError('CONFLICT', accountTakenMessages.username);
    const reset = { token: randomHexToken(), expires: Date.now() + dayMs };
    const record = await buildUserRecord({
      ...body,
      password: passwordToStore({ username: body.username, system_user: body.system_user === true }, body.password),
      reset,
    });
    try {
      await this.ctx.database.db.transaction().execute(async (trx) => {
        await new UsersRepository(trx).insert(record);
        await recordChange(trx, caller, {
          action: 'create',
          record_type: 'user',
          record_id: record.id,
          new_value: toPublicUser(record),
        });
      });
    } catch (err) {
      // A concurrent create with the same id or username.
      if (await repo.findById(record.id)) throw new AppError('BAD_REQUEST', messages.duplicateUser);
      if (await repo.findByUsername(record.username)) throw new AppError('CONFLICT', accountTakenMessages.username);
      throw err;
    }
    this.publishChange(record.id, 'create');
    const linkBase = resetLinkBase(this.ctx.config, body.resetURL);
    await this.ctx.mailer.send({
      to: record.email,
      subject: 'Bathylog - New User Created',
      text:
        `Hi ${record.fullname},\n\nAn account has been created for you with the username ${record.username}.` +
        `\n\nSet your password here (the link is valid for 24 hours):\n${resetLinkText(linkBase, reset.token)}\n`,
    });
    return record.id;
  }

  async update(caller: AuthContext, id: string, body: UpdateUser): Promise<void> {
    const isOwner = caller.user.id === id;
    const canManage = caller.isAdmin || caller.scopes.includes('write_users');
    if (!isOwner && !canManage) throw new AppError('BAD_REQUEST', 'Only admins and the owner can edit users');
    if (body.roles?.includes('admin') && !caller.isAdmin)
      throw new AppError('BAD_REQUEST', 'Only admins create other admins');
    if (body.disabled !== undefined && !caller.isAdmin)
      throw new AppError('BAD_REQUEST', 'Only admins can enable/disabled users');
    if (body.system_user !== undefined && !caller.isAdmin) {
      throw new AppError('BAD_REQUEST', 'Only admins can promote/demote users to system users');
    }
    if (body.disabled === true && isOwner) throw new AppError('BAD_REQUEST', 'Users cannot disable themselves');
    if (body.roles !== undefined && !canManage)
      throw new AppError('BAD_REQUEST', 'Only user managers can change roles');
    const repo = this.repo;
    const user = await repo.findById(id);
    if (!user) throw new AppError('BAD_REQUEST', `No record found for id: ${id}`);
    if (!isOwner && !caller.isAdmin && (user.system_user || user.roles.includes('admin'))) {
      throw new AppError('BAD_REQUEST', 'Only admins can edit system users and admins');
    }
    if (body.username !== undefined && body.username !== user.username) {
      const other = await repo.findByUsername(body.username);
      if (other && other.id !== id) throw new AppError('BAD_REQUEST', accountTakenMessages.username);
    }
    const { password, ...rest } = body;
    const changed = { username: body.username ?? user.username, system_user: body.system_user ?? user.system_user };
    const stored = password !== undefined ? passwordToStore(changed, password) : undefined;
    const hashed = stored !== undefined ? { password: await hashPassword(stored) } : {};
    await this.ctx.database.db.transaction().execute(async (trx) => {
      const users = new UsersRepository(trx);
      await users.update(id, { ...rest, ...hashed });
      const after = (await users.findById(id))!;
      await recordChange(trx, caller, {
        action: body.roles !== undefined && body.roles.join(',') !== user.roles.join(',') ? 'permissions' : 'update',
        record_type: 'user',
        record_id: id,
        old_value: toPublicUser(user),
        // The password itself is never recorded, only that it changed.
        new_value: { ...toPublicUser(after), ...(password !== undefined ? { password_changed: true } : {}) },
      });
    });
    this.publishChange(id, 'update');
    if (password !== undefined) await this.afterPasswordChange(caller, id);
  }

  /** Tells the Users screens of admins and cruise managers (docs/wire.md#channels): the id and the change only. */
  publishChange(id: string, change: 'create' | 'update' | 'delete'): void {
    this.ctx.bus.publish('updateUsers', { id, change });
  }

  /**
   * A new password ends the user's other browser sessions, API tokens and login token: whoever
   * held the old password may have taken any of them. When the owners change their own, the
   * session they did it from continues with a fresh token (sent back in the renewal header).
   */
  async afterPasswordChange(caller: AuthContext, userId: string): Promise<void> {
    await revokeTokens(this.ctx.database.db, userId, { apiTokens: true });
    this.ctx.bus.publish(internalChannels.revoked, { userId });
    if (caller.user.id === userId && !caller.key && caller.claims.exp !== undefined) {
      const fresh = await this.repo.findById(userId);
      if (fresh) caller.renewedToken = await issueSession(this.ctx, fresh);
    }
  }

  /**
   * "Sign out everywhere": every browser session and API token of the user stops working on its
   * next request and on open websockets. The user may do it for themselves, an admin for anyone.
   */
  async signOutEverywhere(caller: AuthContext, id: string): Promise<void> {
    if (caller.key) throw new AppError('FORBIDDEN', 'Device keys cannot sign users out');
    if (caller.user.id !== id && !caller.isAdmin) {
      throw new AppError('FORBIDDEN', 'Only admins and the owner can sign a user out everywhere');
    }
    const user = await this.repo.findById(id);
    if (!user) throw new AppError('NOT_FOUND', `No user found for id: ${id}`);
    await this.ctx.database.db.transaction().execute(async (trx) => {
      await revokeTokens(trx, id, { apiTokens: true });
      await recordChange(trx, caller, {
        action: 'sign_out_everywhere',
        record_type: 'user',
        record_id: id,
      });
    });
    this.ctx.bus.publish(internalChannels.revoked, { userId: id });
  }

  async remove(caller: AuthContext, id: string): Promise<void> {
    if (caller.user.id === id) throw new AppError('BAD_REQUEST', 'Users cannot delete themselves');
    await this.ctx.database.db.transaction().execute(async (trx) => {
      const repo = new UsersRepository(trx);
      const user = await repo.findById(id);
      if (!user) throw new AppError('NOT_FOUND', `No record found for user id: ${id}`);
      if (isProtectedUsername(user.username)) {
        throw new AppError('BAD_REQUEST', `The ${user.username} user can not be deleted`);
      }
      if (!caller.isAdmin && (user.system_user || user.roles.includes('admin'))) {
        throw new AppError('UNAUTHORIZED', 'Only admins can delete system users');
      }
      await repo.delete(id);
      await new AccessListsRepository(trx).removeUserEverywhere(id);
      await recordChange(trx, caller, {
        action: 'delete',
        record_type: 'user',
        record_id: id,
        old_value: toPublicUser(user),
      });
    });
    this.publishChange(id, 'delete');
  }

  /** Deletes every non-system user the caller may delete (never the caller, never admin/guest/pi). */
  async removeAllNonSystem(caller: AuthContext): Promise<number> {
    const removed: string[] = [];
    const count = await this.ctx.database.db.transaction().execute(async (trx) => {
      const repo = new UsersRepository(trx);
      const all = await repo.list({ systemUser: false, sort: 'username' });
      // Admins only (the route's scope), so other admins go too; the caller stays.
      const doomed = all.filter((u) => u.id !== caller.user.id && !isProtectedUsername(u.username));
      const access = new AccessListsRepository(trx);
      for (const u of doomed) {
        await access.removeUserEverywhere(u.id);
        await recordChange(trx, caller, {
          action: 'bulk_delete',
          record_type: 'user',
          record_id: u.id,
          old_value: toPublicUser(u),
        });
      }
      removed.push(...doomed.map((u) => u.id));
      return repo.deleteMany(doomed.map((u) => u.id));
    });
    for (const id of removed) this.publishChange(id, 'delete');
    return count;
  }

  private async ownerOrAdmin(caller: AuthContext, id: string): Promise<UserRecord> {
    if (caller.user.id !== id && !caller.isAdmin) {
      throw new AppError('UNAUTHORIZED', "Only admins and the owner of this user can access this user's token.");
    }
    const user = await this.repo.findById(id);
    if (!user) throw new AppError('NOT_FOUND', `No user found for id: ${id}`);
    return user;
  }

  async token(caller: AuthContext, id: string): Promise<string> {
    if (caller.key) throw new AppError('FORBIDDEN', 'Device keys have no API token');
    return issueApiToken(this.ctx, await this.ownerOrAdmin(caller, id));
  }

  /**
   * The user's loginToken: the same one on every call while it lasts. A user who has none that can
   * be shown (never shown yet, revoked by a password change or "sign out everywhere", stored before
   * tokens were sealed, or sealed under another secret) gets a new one here.
   */
  async loginToken(caller: AuthContext, id: string): Promise<string> {
    let user = await this.ownerOrAdmin(caller, id);
    const repo = this.repo;
    for (let attempt = 0; attempt < 3; attempt++) {
      const shown = user.login_token_sealed ? openLoginToken(user.login_token_sealed, this.ctx.secret) : null;
      if (shown !== null && hashLoginToken(shown) === user.login_token && loginTokenCurrent(user)) return shown;
      const next = newLoginToken(this.ctx.secret);
      const replaced = await repo.replaceLoginToken(id, user.login_token, {
        login_token: next.hash,
        login_token_sealed: next.sealed,
        login_token_at: loginTokenIssuedAt(user),
      });
      if (replaced) return next.token;
      // Another request replaced it first: show that one.
      const again = await repo.findById(id);
      if (!again) break;
      user = again;
    }
    throw new AppError('NOT_FOUND', `No user found for id: ${id}`);
  }
}
