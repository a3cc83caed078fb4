import type { ForgotPassword, Login, Register, ResetPassword, UpdateProfile } from '@bathylog/shared';
import type { AppContext } from '../../context.js';
import { AppError } from '../../lib/app-error.js';
import { FailureLimiter } from '../../lib/failure-limiter.js';
import { checkPassword, hashPassword } from '../../lib/passwords.js';
import { randomHexToken } from '../../lib/random.js';
import { resetLinkBase } from '../../lib/reset-link.js';
import { verifyRecaptcha } from '../../lib/recaptcha.js';
import type { AuthContext } from '../../plugins/auth.js';
import { UsersRepository } from '../users/users.repository.js';
import { buildUserRecord, toPublicUser, UsersService } from '../users/users.service.js';
import { internalChannels } from '../../realtime/internal-channels.js';
import { recordChange } from '../audit/audit.js';
import { issueApiToken, issueSession, revokeTokens } from './tokens.js';

const resetLifetimeMs = 15 * 60 * 1000;

/** Login, registration, password reset and the caller's own profile (reference §5.1). */
export class AuthService {
  private readonly byUsername: FailureLimiter;
  private readonly byAddress: FailureLimiter;

  constructor(private readonly ctx: AppContext) {
    const { max, windowSeconds } = ctx.config.loginRateLimit;
    this.byUsername = new FailureLimiter(max, windowSeconds * 1000);
    // An address may hold several users (a ship's NAT): allow it more tries than one username.
    this.byAddress = new FailureLimiter(max * 5, windowSeconds * 1000);
  }

  private get repo() {
    return new UsersRepository(this.ctx.database.db);
  }

  private checkThrottle(keys: string[]): void {
    const wait = Math.max(this.byUsername.blockedFor(keys[0]!), this.byAddress.blockedFor(keys[1]!));
    if (wait > 0) {
      const minutes = Math.max(1, Math.ceil(wait / 60_000));
      throw new AppError(
        'TOO_MANY_REQUESTS',
        `Too many failed login attempts, try again in ${minutes} minute${minutes > 1 ? 's' : ''}`,
        {
          headers: { 'retry-after': String(Math.ceil(wait / 1000)) },
        },
      );
    }
  }

  async login(body: Login, ip: string): Promise<{ token: string; id: string }> {
    const userKey = 'username' in body ? `u:${body.username.toLowerCase()}` : 'token';
    const keys = [userKey, `a:${ip}`];
    this.checkThrottle(keys);
    const repo = this.repo;
    const fail = (message: string) => {
      this.byUsername.fail(keys[0]!);
      this.byAddress.fail(keys[1]!);
      return new AppError('UNAUTHORIZED', message);
    };
    let user;
    if ('loginToken' in body) {
      user = await repo.findByLoginToken(body.loginToken);
      if (!user) throw fail('bad loginToken');
    } else {
      // The exact name first (a script may send a mixed-case name it created), then lowercased
      // as the client sends what users type.
      const lower = body.username.toLowerCase();
      user =
        (await repo.findByUsername(body.username)) ??
        (lower !== body.username ? await repo.findByUsername(lower) : undefined);
      // No such username: the field may hold an email address (Sealog 2.4.2), matched case-insensitively.
      const candidates = user ? [user] : body.username.includes('@') ? await repo.listByEmailInsensitive(lower) : [];
      user = undefined;
      for (const candidate of candidates) {
        if (await checkPassword(body.password, candidate.password)) {
          user = candidate;
          break;
        }
      }
      if (!user) throw fail('unknown user or bad password');
    }
    if (user.disabled) throw new AppError('UNAUTHORIZED', 'account is disabled');
    await verifyRecaptcha(this.ctx.config.reCaptchaSecret, body.reCaptcha, ip);
    this.byUsername.reset(keys[0]!);
    await repo.update(user.id, { last_login: Date.now() });
    return { token: await issueSession(this.ctx, user), id: user.id };
  }

  async register(body: Register, ip: string, route: string): Promise<string> {
    const repo = this.repo;
    const invalid = (message: string) => new AppError('UNAUTHORIZED', message, { error: 'invalid registration' });
    if (await repo.findByUsername(body.username)) throw invalid('username already exists');
    if (await repo.findByEmail(body.email)) throw invalid('email already exists');
    await verifyRecaptcha(this.ctx.config.reCaptchaSecret, body.reCaptcha, ip);
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
      if (await repo.findByUsername(body.username)) throw invalid('username already exists');
      throw err;
    }
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

  async forgotPassword(body: ForgotPassword, ip: string): Promise<string> {
    const repo = this.repo;
    const user = await repo.findByEmail(body.email);
    if (!user) throw new AppError('BAD_REQUEST', 'no user found for that email address');
    if (user.disabled) throw new AppError('BAD_REQUEST', 'the account associated with email address is disabled');
    await verifyRecaptcha(this.ctx.config.reCaptchaSecret, body.reCaptcha, ip);
    const token = randomHexToken();
    await repo.update(user.id, { reset_password_token: token, reset_password_expires: Date.now() + resetLifetimeMs });
    await this.ctx.mailer.send({
      to: user.email,
      subject: 'Bathylog Password Reset Request',
      text: `Hi ${user.fullname},\n\nA password reset was requested for the account ${user.username}.\nFollow this link within 15 minutes to set a new password:\n\n${resetLinkBase(this.ctx.config, body.resetURL)}${token}\n\nIf you did not ask for this, ignore this message.\n`,
    });
    return 'password reset email sent';
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
    // Whoever held the old password is signed out of the browser (issue 11).
    await revokeTokens(this.ctx.database.db, user.id, { apiTokens: false });
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
      if (other && other.id !== caller.user.id) throw new AppError('BAD_REQUEST', 'Username already exists');
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
    if (password !== undefined) await new UsersService(this.ctx).afterPasswordChange(caller, caller.user.id);
  }
}
