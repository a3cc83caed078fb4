import type { ForgotPassword, Login, Register, ResetPassword, UpdateProfile } from '@bathylog/shared';
import { accountTakenMessages } from '@bathylog/shared/rules/auth-messages';
import type { AppContext } from '../../context.js';
import { AppError } from '../../lib/app-error.js';
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/schema.js';
import { BackoffLimiter } from '../../lib/failure-limiter.js';
import { checkPassword, checkPasswordOfNoUser, hashPassword } from '../../lib/passwords.js';
import { randomHexToken } from '../../lib/random.js';
import { resetLinkBase, resetLinkText } from '../../lib/reset-link.js';
import { verifyRecaptcha } from '../../lib/recaptcha.js';
import type { AuthContext } from '../../plugins/auth.js';
import { UsersRepository, type UserRecord } from '../users/users.repository.js';
import { buildUserRecord, mayLogInWithoutPassword, toPublicUser, UsersService } from '../users/users.service.js';
import { internalChannels } from '../../realtime/internal-channels.js';
import { auditRow, recordChange } from '../audit/audit.js';
import { AuditRepository } from '../audit/audit.repository.js';
import { issueApiToken, issueSession } from '../../plugins/session-tokens.js';
import { loginTokenCurrent, revokeTokens } from './tokens.js';

const resetLifetimeMs = 15 * 60 * 1000;

function waitText(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  if (seconds < 120) return `${seconds} second${seconds > 1 ? 's' : ''}`;
  return `${Math.ceil(seconds / 60)} minutes`;
}

/** Login, registration, password reset and the caller's own profile (docs/wire.md#auth). */
export class AuthService {
  /** Failed logins per username (or loginToken) and address: the guesser, and only the guesser. */
  private readonly byGuesser: BackoffLimiter;
  /** Usernames an address failed on: one address guessing across many accounts. */
  private readonly byAddress: BackoffLimiter;

  constructor(private readonly ctx: AppContext) {
    const { max, windowSeconds } = ctx.config.loginRateLimit;
    this.byGuesser = new BackoffLimiter(max, windowSeconds * 1000);
    // A ship's NAT puts its whole crew behind one address: a script retrying one stale password
    // counts once here, and only many different usernames failing slow the address down.
    this.byAddress = new BackoffLimiter(max * 2, windowSeconds * 1000);
  }

  private get repo() {
    return new UsersRepository(this.ctx.database.db);
  }

  private checkThrottle(guesser: string, address: string): void {
    const wait = Math.max(this.byGuesser.blockedFor(guesser), this.byAddress.blockedFor(address));
    if (wait > 0) {
      throw new AppError('TOO_MANY_REQUESTS', `Too many failed login attempts, try again in ${waitText(wait)}`, {
        headers: { 'retry-after': String(Math.ceil(wait / 1000)) },
      });
    }
  }

  /** Audit rows of logins (never the password or token, only how and from where). */
  private async recordLogin(
    db: Kysely<DB> | Transaction<DB>,
    user: UserRecord,
    route: string,
    action: 'login' | 'login_failed',
    detail: Record<string, string>,
  ): Promise<void> {
    const change = { action, record_type: 'user', record_id: user.id, new_value: detail };
    // A failed attempt was made by someone unknown, not by the user it names.
    const row =
      action === 'login'
        ? auditRow({ self: { id: user.id, username: user.username }, route }, change)
        : { ...auditRow(null, change), route };
    await new AuditRepository(db).append(row);
  }

  async login(body: Login, ip: string, route: string): Promise<{ token: string; id: string }> {
    const loginName = 'username' in body ? body.username : 'email' in body ? body.email : null;
    const guesser = `${loginName !== null ? `u:${loginName.toLowerCase()}` : 'token'}|a:${ip}`;
    const address = `a:${ip}`;
    this.checkThrottle(guesser, address);
    const repo = this.repo;
    const method = 'loginToken' in body ? 'loginToken' : 'email' in body ? 'email' : 'password';
    const fail = async (message: string, named: UserRecord | undefined) => {
      if (this.byGuesser.failures(guesser) === 0) this.byAddress.fail(address);
      this.byGuesser.fail(guesser);
      if (named) await this.recordLogin(this.ctx.database.db, named, route, 'login_failed', { address: ip, method });
      return new AppError('UNAUTHORIZED', message);
    };
    let user;
    if ('loginToken' in body) {
      user = await repo.findByLoginToken(body.loginToken);
      // A token issued before the user's last revocation (password change, sign out everywhere).
      if (!user || !loginTokenCurrent(user)) throw await fail('bad loginToken', undefined);
    } else if ('email' in body) {
      user = await this.checkCandidates(await repo.listByEmailInsensitive(body.email), body.password, fail);
    } else {
      // The exact name first (a script may send a mixed-case name it created), then lowercased
      // as the client sends what users type.
      const lower = body.username.toLowerCase();
      user =
        (await repo.findByUsername(body.username)) ??
        (lower !== body.username ? await repo.findByUsername(lower) : undefined);
      // No such username: the field may hold an email address (Sealog 2.4.2), matched case-insensitively.
      const candidates = user ? [user] : body.username.includes('@') ? await repo.listByEmailInsensitive(lower) : [];
      user = await this.checkCandidates(candidates, body.password, fail);
    }
    if (user.disabled) throw new AppError('UNAUTHORIZED', 'account is disabled');
    await verifyRecaptcha(this.ctx.config.reCaptchaSecret, body.reCaptcha, ip);
    this.byGuesser.reset(guesser);
    const loggedIn = user;
    await this.ctx.database.db.transaction().execute(async (trx) => {
      await new UsersRepository(trx).update(loggedIn.id, { last_login: Date.now() });
      await this.recordLogin(trx, loggedIn, route, 'login', { address: ip, method });
    });
    return { token: await issueSession(this.ctx, user), id: user.id };
  }

  /**
   * The account among the candidates whose password matches, or the 401 a wrong password or an
   * unknown name gets (the same message either way, so it does not tell whether a name exists).
   */
  private async checkCandidates(
    candidates: UserRecord[],
    password: string,
    fail: (message: string, named: UserRecord | undefined) => Promise<AppError>,
  ): Promise<UserRecord> {
    for (const candidate of candidates) {
      // An empty password matches accounts stored without one before that was refused; only the
      // guest logs in with it.
      const match = await checkPassword(password, candidate.password);
      if (match && (password !== '' || mayLogInWithoutPassword(candidate))) return candidate;
    }
    // Unknown names cost a password check too, so the answer time does not tell them apart.
    if (candidates.length === 0) await checkPasswordOfNoUser(password);
    throw await fail('unknown user or bad password', candidates[0]);
  }

  async register(body: Register, ip: string, route: string): Promise<string> {
    const repo = this.repo;
    const invalid = (message: string) => new AppError('UNAUTHORIZED', message, { error: 'invalid registration' });
    // The captcha first, so probing for accounts costs a solved captcha; one message for a taken
    // username or email, so the answer does not tell which has an account.
    await verifyRecaptcha(this.ctx.config.reCaptchaSecret, body.reCaptcha, ip);
    const taken = () => invalid(accountTakenMessages.registrationTaken);
    if (await repo.findByUsername(body.username)) throw taken();
    if (await repo.findByEmail(body.email)) throw taken();
    const { registration } = this.ctx.config;
    const record = await buildUserRecord({
      username: body.username,
      fullname: body.fullname,
      email: body.email,
      password: body.password,
      roles: registration.roles,
      disabled: registration.disabled,
      last_login: Date.now(),
    });
    try {
      await this.ctx.database.db.transaction().execute(async (trx) => {
        await new UsersRepository(trx).insert(record);
        await recordChange(
          trx,
          { self: { id: record.id, username: record.username }, route },
          { action: 'register', record_type: 'user', record_id: record.id, new_value: toPublicUser(record) },
        );
      });
    } catch (err) {
      if (await repo.findByUsername(body.username)) throw taken();
      throw err;
    }
    new UsersService(this.ctx).publishChange(record.id, 'create');
    await this.ctx.mailer.send({
      to: record.email,
      subject: 'Welcome to Bathylog',
      text: `Hi ${record.fullname},\n\nWelcome to Bathylog. Your username is ${record.username}.\n`,
    });
    if (this.ctx.config.smtp.notify.length) {
      await this.ctx.mailer.send({
        to: this.ctx.config.smtp.notify,
        subject: 'New Bathylog User Registration',
        text: `New user: ${record.username} (${record.fullname}, ${record.email}).${registration.disabled ? '\nThe account is disabled until an admin enables it.' : ''}\n`,
      });
    }
    return record.id;
  }

  /**
   * Mails a reset link. The answer is the same, and takes about as long, whether the address
   * belongs to an enabled user, a disabled one or nobody: the token and the mail are written
   * after the answer, so the answer says nothing about which addresses have accounts.
   */
  async forgotPassword(body: ForgotPassword, ip: string): Promise<string> {
    await verifyRecaptcha(this.ctx.config.reCaptchaSecret, body.reCaptcha, ip);
    const user = await this.repo.findByEmail(body.email);
    if (user && !user.disabled) {
      const linkBase = resetLinkBase(this.ctx.config, body.resetURL);
      this.sendResetLink(user, linkBase).catch((err: unknown) =>
        this.ctx.log.error({ err }, 'password reset link could not be stored'),
      );
    }
    return 'password reset email sent';
  }

  private async sendResetLink(user: UserRecord, linkBase: string | null): Promise<void> {
    const token = randomHexToken();
    await this.repo.update(user.id, {
      reset_password_token: token,
      reset_password_expires: Date.now() + resetLifetimeMs,
    });
    await this.ctx.mailer.send({
      to: user.email,
      subject: 'Bathylog Password Reset Request',
      text: `Hi ${user.fullname},\n\nA password reset was requested for the account ${user.username}.\nFollow this link within 15 minutes to set a new password:\n\n${resetLinkText(linkBase, token)}\n\nIf you did not ask for this, ignore this message.\n`,
    });
  }

  async resetPassword(body: ResetPassword, ip: string, route: string): Promise<void> {
    const repo = this.repo;
    const invalid = (message: string) => new AppError('UNAUTHORIZED', message, { error: 'invalid token' });
    const user = await repo.findByResetToken(body.token);
    if (!user) throw invalid('password reset token is invalid');
    if ((user.reset_password_expires ?? 0) < Date.now()) {
      await repo.update(user.id, { reset_password_token: null, reset_password_expires: null });
      throw invalid('password reset token has expired');
    }
    await verifyRecaptcha(this.ctx.config.reCaptchaSecret, body.reCaptcha, ip);
    const password = await hashPassword(body.password);
    await this.ctx.database.db.transaction().execute(async (trx) => {
      await new UsersRepository(trx).update(user.id, {
        password,
        reset_password_token: null,
        reset_password_expires: null,
      });
      // The password itself is never recorded, only that it changed.
      await recordChange(
        trx,
        { self: { id: user.id, username: user.username }, route },
        {
          action: 'password_reset',
          record_type: 'user',
          record_id: user.id,
          old_value: toPublicUser(user),
          new_value: { ...toPublicUser(user), password_changed: true },
        },
      );
    });
    // Whoever held the old password may hold a session, an API token or the login token: all end.
    await revokeTokens(this.ctx.database.db, user.id, { apiTokens: true });
    this.ctx.bus.publish(internalChannels.revoked, { userId: user.id });
  }

  profile(caller: AuthContext) {
    return toPublicUser(caller.user);
  }

  profileToken(caller: AuthContext): Promise<string> {
    if (caller.key) throw new AppError('FORBIDDEN', 'Device keys have no API token');
    return issueApiToken(this.ctx, caller.user);
  }

  async updateProfile(caller: AuthContext, body: UpdateProfile): Promise<void> {
    if (caller.key) throw new AppError('FORBIDDEN', 'Device keys have no profile to change');
    const repo = this.repo;
    if (body.username !== undefined && body.username !== caller.user.username) {
      const other = await repo.findByUsername(body.username);
      if (other && other.id !== caller.user.id) throw new AppError('BAD_REQUEST', accountTakenMessages.username);
    }
    const { password, ...rest } = body;
    const hashed = password !== undefined ? { password: await hashPassword(password) } : {};
    await this.ctx.database.db.transaction().execute(async (trx) => {
      const users = new UsersRepository(trx);
      const before = (await users.findById(caller.user.id)) ?? caller.user;
      await users.update(caller.user.id, { ...rest, ...hashed });
      const after = (await users.findById(caller.user.id))!;
      await recordChange(trx, caller, {
        action: 'profile',
        record_type: 'user',
        record_id: caller.user.id,
        old_value: toPublicUser(before),
        new_value: { ...toPublicUser(after), ...(password !== undefined ? { password_changed: true } : {}) },
      });
    });
    const users = new UsersService(this.ctx);
    users.publishChange(caller.user.id, 'update');
    if (password !== undefined) await users.afterPasswordChange(caller, caller.user.id);
  }
}
