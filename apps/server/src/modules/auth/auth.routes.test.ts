import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionEndHeader } from '@bathylog/shared';
import { outboxMails } from '../../../test/outbox.js';
import { createTestApp, engines, type TestApp } from '../../../test/test-app.js';
import { signToken } from '../../lib/jwt.js';
import { UsersRepository } from '../users/users.repository.js';
import { buildUserRecord } from '../users/users.service.js';

const adminId = '5981f167212b348aed7fa9f5';
const publicUserKeys = ['disabled', 'email', 'fullname', 'id', 'last_login', 'roles', 'system_user', 'username'];

function claimsOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;
}

function error(statusCode: number, message: string, error?: string) {
  const phrase: Record<number, string> = {
    400: 'Bad Request',
    401: 'Unauthorized',
    403: 'Forbidden',
    404: 'Not Found',
    409: 'Conflict',
    429: 'Too Many Requests',
  };
  return { statusCode, error: error ?? phrase[statusCode], message };
}

/** Authentication failures carry the text again in attributes (hapi-auth-jwt2's shape). */
const unauthorized = (message: string) => ({ ...error(401, message), attributes: { error: message } });

/** The first mail to `to` (containing `text`): mails are written after the answer, so wait for it. */
async function mailTo(app: TestApp, to: string, text = ''): Promise<string> {
  let found: string | undefined;
  await expect
    .poll(() => (found = outboxMails(app).find((m) => m.includes(`To: ${to}`) && m.includes(text))), { timeout: 5000 })
    .toBeDefined();
  return found!;
}

describe.each(engines)('auth routes on %s', (engine) => {
  let app: TestApp;
  let admin: string;
  let counter = 0;

  /** Stores a user straight in the database, as a Sealog import may hold one. */
  async function insertLegacyUser(username: string): Promise<{ id: string; username: string; password: string }> {
    const password = `pw-${username}`;
    const record = await buildUserRecord({
      username,
      fullname: username,
      email: `${username.toLowerCase()}-legacy@example.org`,
      password,
      roles: ['event_logger'],
    });
    await new UsersRepository(app.ctx.database.db).insert(record);
    return { id: record.id, username, password };
  }

  /** Creates a user through the API as admin and returns its id. */
  async function createUser(
    overrides: Record<string, unknown> = {},
  ): Promise<{ id: string; username: string; password: string }> {
    counter++;
    const username = (overrides.username as string | undefined) ?? `user${counter}`;
    const password = (overrides.password as string | undefined) ?? `pw-${counter}`;
    const res = await app.api('POST', '/users', {
      token: admin,
      body: {
        username,
        fullname: `User ${counter}`,
        email: `${username}@example.org`,
        password,
        roles: ['event_logger'],
        ...overrides,
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    return { id: (res.json() as { insertedId: string }).insertedId, username, password };
  }

  beforeAll(async () => {
    app = await createTestApp(engine);
    admin = await app.login('admin', 'demo');
  });
  afterAll(async () => {
    await app?.close();
  });

  describe('POST /auth/login', () => {
    it('answers {token, id} with the claims Sealog scripts read', async () => {
      const res = await app.api('POST', '/auth/login', { body: { username: 'admin', password: 'demo' } });
      expect(res.statusCode).toBe(200);
      const body = res.json() as { token: string; id: string };
      expect(Object.keys(body).sort()).toEqual(['id', 'token']);
      expect(body.id).toBe(adminId);
      const claims = claimsOf(body.token);
      expect(claims).toMatchObject({
        id: adminId,
        scope: ['admin'],
        roles: ['admin', 'cruise_manager', 'event_logger', 'event_manager', 'event_watcher', 'template_manager'],
      });
      expect(typeof claims.iat).toBe('number');
      // A browser session: it expires after the configured lifetime (7 days by default).
      expect(claims.exp).toBe((claims.iat as number) + 7 * 24 * 60 * 60);
    });

    it('lowercases the username, and still finds a mixed-case name created by a script', async () => {
      expect((await app.api('POST', '/auth/login', { body: { username: 'ADMIN', password: 'demo' } })).statusCode).toBe(
        200,
      );
      // The API refuses such names now (usernames are lower case), but databases imported from Sealog hold them.
      const mixed = await insertLegacyUser('MixedCase');
      const res = await app.api('POST', '/auth/login', { body: { username: 'MixedCase', password: mixed.password } });
      expect(res.statusCode).toBe(200);
      expect((res.json() as { id: string }).id).toBe(mixed.id);
      // A script-made 'Admin' is not the admin: the exact name wins over the lowercased one.
      const twin = await insertLegacyUser('Admin');
      const asTwin = await app.api('POST', '/auth/login', { body: { username: 'Admin', password: twin.password } });
      expect((asTwin.json() as { id: string }).id).toBe(twin.id);
      const asAdmin = await app.api('POST', '/auth/login', { body: { username: 'ADMIN', password: 'demo' } });
      expect((asAdmin.json() as { id: string }).id).toBe(adminId);
    });

    it('accepts the email address, in any case, where the username goes', async () => {
      const res = await app.api('POST', '/auth/login', {
        body: { username: 'Admin@NotARealServer.com', password: 'demo' },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect((res.json() as { id: string }).id).toBe(adminId);
      const user = await createUser({ username: 'mailer', email: 'Mailer.Person@Example.org' });
      const byMail = await app.api('POST', '/auth/login', {
        body: { username: 'mailer.person@example.org', password: user.password },
      });
      expect((byMail.json() as { id: string }).id).toBe(user.id);
      // A wrong password or an unknown address gets the username message, not a hint that the address exists.
      for (const body of [
        { username: 'admin@notarealserver.com', password: 'wrong' },
        { username: 'nobody@notarealserver.com', password: 'demo' },
      ]) {
        const bad = await app.api('POST', '/auth/login', { body });
        expect(bad.json()).toEqual(error(401, 'unknown user or bad password'));
      }
    });

    it('accepts the Sealog 2.4 {email, password} shape; a wrong password is 401 as with a username', async () => {
      const res = await app.api('POST', '/auth/login', {
        body: { email: 'Admin@NotARealServer.com', password: 'demo' },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ token: expect.any(String), id: adminId });
      const user = await createUser({ username: 'mailer2', email: 'Second.Mailer@Example.org' });
      const byMail = await app.api('POST', '/auth/login', {
        body: { email: 'second.mailer@example.org', password: user.password, reCaptcha: null },
      });
      expect((byMail.json() as { id: string }).id).toBe(user.id);
      for (const body of [
        { email: 'admin@notarealserver.com', password: 'wrong' },
        { email: 'nobody@notarealserver.com', password: 'demo' },
        // A username is not an address: the email field matches addresses only.
        { email: 'admin', password: 'demo' },
      ]) {
        const bad = await app.api('POST', '/auth/login', { body });
        expect(bad.json(), JSON.stringify(body)).toEqual(error(401, 'unknown user or bad password'));
      }
      // Unknown keys, or both names at once, are still refused with the field named.
      for (const [body, message] of [
        [{ email: 'admin@notarealserver.com', password: 'demo', extra: 1 }, '"extra" is not allowed'],
        [{ email: 'admin@notarealserver.com', username: 'admin', password: 'demo' }, '"email" is not allowed'],
        [{ email: '', password: 'demo' }, '"email" is not allowed to be empty'],
        [{ email: 'admin@notarealserver.com' }, '"password" is required'],
      ] as const) {
        const bad = await app.api('POST', '/auth/login', { body });
        expect(bad.json(), JSON.stringify(body)).toEqual(error(400, message));
      }
    });

    it('logs the guest in with the empty password, read-only in production', async () => {
      const res = await app.api('POST', '/auth/login', { body: { username: 'guest', password: '' } });
      expect(res.statusCode).toBe(200);
      expect(claimsOf((res.json() as { token: string }).token)).toMatchObject({
        scope: ['read_events', 'read_cruises', 'read_lowerings'],
        roles: ['event_watcher'],
      });
    });

    it('refuses a bad password or an unknown user with the same message', async () => {
      for (const body of [
        { username: 'admin', password: 'wrong' },
        { username: 'nobody', password: 'demo' },
      ]) {
        const res = await app.api('POST', '/auth/login', { body });
        expect(res.statusCode).toBe(401);
        expect(res.json()).toEqual(error(401, 'unknown user or bad password'));
      }
    });

    it('refuses a disabled account after checking its password', async () => {
      const user = await createUser({ disabled: true });
      const res = await app.api('POST', '/auth/login', { body: { username: user.username, password: user.password } });
      expect(res.json()).toEqual(error(401, 'account is disabled'));
      const wrong = await app.api('POST', '/auth/login', { body: { username: user.username, password: 'nope' } });
      expect(wrong.json()).toEqual(error(401, 'unknown user or bad password'));
      // pi is seeded disabled in production mode.
      const pi = await app.api('POST', '/auth/login', { body: { username: 'pi', password: 'demo' } });
      expect(pi.statusCode).toBe(401);
    });

    it('logs in with a loginToken, and refuses an unknown one', async () => {
      const user = await createUser();
      const lt = await app.api('GET', `/users/${user.id}/loginToken`, { token: admin });
      const { loginToken } = lt.json() as { loginToken: string };
      expect(loginToken).toMatch(/^[A-Za-z0-9]{20}$/);
      const res = await app.api('POST', '/auth/login', { body: { loginToken } });
      expect(res.statusCode).toBe(200);
      expect((res.json() as { id: string }).id).toBe(user.id);
      const bad = await app.api('POST', '/auth/login', { body: { loginToken: 'A'.repeat(20) } });
      expect(bad.json()).toEqual(error(401, 'bad loginToken'));
    });

    it('validates the payload with messages naming the field', async () => {
      const cases: Array<[unknown, string]> = [
        [{ username: 'admin' }, '"password" is required'],
        [{ username: '', password: 'x' }, '"username" is not allowed to be empty'],
        [
          { username: 'a'.repeat(51), password: 'x' },
          '"username" length must be less than or equal to 50 characters long',
        ],
        [
          { username: 'admin', password: 'x'.repeat(51) },
          '"password" length must be less than or equal to 50 characters long',
        ],
        [{ username: 'admin', password: 'demo', extra: 1 }, '"extra" is not allowed'],
        [{ loginToken: 'short' }, '"loginToken" length must be 20 characters long'],
        [{ username: 'admin', password: 5 }, '"password" must be a string'],
      ];
      for (const [body, message] of cases) {
        const res = await app.api('POST', '/auth/login', { body });
        expect(res.json(), JSON.stringify(body)).toEqual(error(400, message));
      }
    });

    it('records the login time', async () => {
      const user = await createUser();
      const before = Date.now();
      const token = await app.login(user.username, user.password);
      const profile = (await app.api('GET', '/auth/profile', { token })).json() as { last_login: string };
      expect(Date.parse(profile.last_login)).toBeGreaterThanOrEqual(before - 1000);
    });
  });

  describe('HTTP conventions on the auth routes', () => {
    it('parses a body without Content-Type as JSON (the Python helpers send no content type)', async () => {
      const res = await app.app.inject({
        method: 'POST',
        url: '/sealog-server/api/v1/auth/login',
        payload: JSON.stringify({ username: 'admin', password: 'demo' }),
      });
      expect(res.statusCode).toBe(200);
      expect((res.json() as { id: string }).id).toBe(adminId);
    });

    it('answers malformed JSON with 400 and Sealog text', async () => {
      const res = await app.api('POST', '/auth/login', {
        body: '{"username": "admin",',
        headers: { 'content-type': 'application/json' },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual(error(400, 'Invalid request payload JSON format'));
    });

    it('accepts form-encoded bodies, and rejects text bodies as not an object', async () => {
      const form = await app.api('POST', '/auth/login', {
        body: 'username=admin&password=demo',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(form.statusCode).toBe(200);
      const text = await app.api('POST', '/auth/login', { body: 'hello', headers: { 'content-type': 'text/plain' } });
      expect(text.json()).toEqual(error(400, '"value" must be of type object'));
    });

    it('does not let a prototype-pollution payload through', async () => {
      const res = await app.api('POST', '/auth/login', {
        body: '{"username":"admin","password":"demo","__proto__":{"x":1}}',
        headers: { 'content-type': 'application/json' },
      });
      expect(res.json()).toEqual(error(400, 'Invalid request payload JSON format'));
    });
  });

  describe('POST /auth/register', () => {
    it('creates an enabled event_watcher/event_logger and answers 201 with the insert result', async () => {
      const res = await app.api('POST', '/auth/register', {
        body: { username: 'newbie', fullname: 'New Bie', email: 'newbie@example.org', password: 'secret-pw' },
      });
      expect(res.statusCode).toBe(201);
      const body = res.json() as { acknowledged: boolean; insertedId: string };
      expect(body.acknowledged).toBe(true);
      expect(body.insertedId).toMatch(/^[0-9a-f]{24}$/);
      const token = await app.login('newbie', 'secret-pw');
      const profile = (await app.api('GET', '/auth/profile', { token })).json();
      expect(profile).toMatchObject({
        id: body.insertedId,
        username: 'newbie',
        roles: ['event_watcher', 'event_logger'],
        system_user: false,
        disabled: false,
      });
      expect(outboxMails(app).some((m) => m.includes('To: newbie@example.org') && m.includes('newbie'))).toBe(true);
    });

    it('refuses a taken username or e-mail with 401 "invalid registration", one message for both', async () => {
      const taken = await app.api('POST', '/auth/register', {
        body: { username: 'admin', fullname: 'X', email: 'other@example.org', password: 'long-enough' },
      });
      expect(taken.statusCode).toBe(401);
      expect(taken.json()).toEqual(error(401, 'Username or email already in use', 'invalid registration'));
      const email = await app.api('POST', '/auth/register', {
        body: { username: 'fresh-name', fullname: 'X', email: 'admin@notarealserver.com', password: 'long-enough' },
      });
      expect(email.json()).toEqual(error(401, 'Username or email already in use', 'invalid registration'));
    });

    it('validates the payload', async () => {
      const ok = { username: 'valid1', fullname: 'Valid', email: 'valid1@example.org', password: 'long-enough' };
      const cases: Array<[unknown, string]> = [
        [{ ...ok, fullname: undefined }, '"fullname" is required'],
        [{ ...ok, email: '' }, '"email" is not allowed to be empty'],
        [{ ...ok, username: 'u'.repeat(16) }, '"username" length must be less than or equal to 15 characters long'],
        [{ ...ok, username: 'Bad Name' }, '"username" can not include whitespace'],
        [{ ...ok, username: 'bad\tname' }, '"username" can not include whitespace'],
        [{ ...ok, username: 'BadName' }, '"username" can NOT include uppercase letters'],
        [{ ...ok, username: '' }, '"username" is not allowed to be empty'],
        [{ ...ok, fullname: 'f'.repeat(51) }, '"fullname" length must be less than or equal to 50 characters long'],
        [
          { ...ok, email: `${'e'.repeat(45)}@x.org` },
          '"email" length must be less than or equal to 50 characters long',
        ],
        [{ ...ok, password: 'p'.repeat(51) }, '"password" length must be less than or equal to 50 characters long'],
        [{ ...ok, roles: ['admin'] }, '"roles" is not allowed'],
        // The client's rules, now checked by the server too: an email address, and a password of
        // 8 characters or more without whitespace.
        [{ ...ok, email: 'not-an-address' }, '"email" must be a valid email'],
        [{ ...ok, email: 'two words@example.org' }, '"email" must be a valid email'],
        [{ ...ok, password: '' }, '"password" is not allowed to be empty'],
        [{ ...ok, password: 'short' }, '"password" length must be at least 8 characters long'],
        [{ ...ok, password: 'has a space' }, '"password" can not include whitespace'],
      ];
      for (const [body, message] of cases) {
        const res = await app.api('POST', '/auth/register', { body });
        expect(res.json(), JSON.stringify(body)).toEqual(error(400, message));
      }
    });
  });

  describe('forgotPassword and resetPassword', () => {
    it('without SMTP writes the reset link to the outbox; the token then resets the password once', async () => {
      const user = await createUser({ email: 'forgetful@example.org' });
      const res = await app.api('POST', '/auth/forgotPassword', {
        body: { email: 'forgetful@example.org', resetURL: 'http://ship.local/resetPassword/' },
        headers: { host: 'ship.local' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ statusCode: 200, message: 'password reset email sent' });
      // No public URL and no allowed origin: the mail holds the path, built from nothing the request said.
      const mail = await mailTo(app, 'forgetful@example.org', 'Password Reset');
      expect(mail).not.toContain('ship.local');
      const token = /\n\/resetPassword\/([0-9a-f]{40}) /.exec(mail)![1]!;

      const reset = await app.api('PATCH', '/auth/resetPassword', { body: { token, password: 'brand-new' } });
      expect(reset.statusCode).toBe(204);
      expect(reset.body).toBe('');
      expect(
        (await app.api('POST', '/auth/login', { body: { username: user.username, password: 'brand-new' } })).statusCode,
      ).toBe(200);
      expect(
        (await app.api('POST', '/auth/login', { body: { username: user.username, password: user.password } }))
          .statusCode,
      ).toBe(401);
      // Used once, gone.
      const again = await app.api('PATCH', '/auth/resetPassword', { body: { token, password: 'other-pw' } });
      expect(again.json()).toEqual(error(401, 'password reset token is invalid', 'invalid token'));
    });

    it('refuses an unknown token and an expired one (which it then clears)', async () => {
      const bad = await app.api('PATCH', '/auth/resetPassword', {
        body: { token: 'f'.repeat(40), password: 'x-long-enough' },
      });
      expect(bad.statusCode).toBe(401);
      expect(bad.json()).toEqual(error(401, 'password reset token is invalid', 'invalid token'));

      const user = await createUser({ email: 'late@example.org' });
      await app.api('POST', '/auth/forgotPassword', {
        body: { email: 'late@example.org', resetURL: 'http://ship.local/r/' },
      });
      await mailTo(app, 'late@example.org', 'Password Reset');
      const row = await app.ctx.database.db
        .selectFrom('users')
        .select('reset_password_token')
        .where('id', '=', user.id)
        .executeTakeFirstOrThrow();
      const token = row.reset_password_token!;
      expect(token).toMatch(/^[0-9a-f]{40}$/);
      await app.ctx.database.db
        .updateTable('users')
        .set({ reset_password_expires: Date.now() - 1 })
        .where('id', '=', user.id)
        .execute();
      const expired = await app.api('PATCH', '/auth/resetPassword', { body: { token, password: 'x-long-enough' } });
      expect(expired.json()).toEqual(error(401, 'password reset token has expired', 'invalid token'));
      const cleared = await app.api('PATCH', '/auth/resetPassword', { body: { token, password: 'x-long-enough' } });
      expect(cleared.json()).toEqual(error(401, 'password reset token is invalid', 'invalid token'));
      expect(
        (await app.api('POST', '/auth/login', { body: { username: user.username, password: user.password } }))
          .statusCode,
      ).toBe(200);
    });

    it('expires the forgotten-password token after 15 minutes', async () => {
      const user = await createUser({ email: 'quarter@example.org' });
      const before = Date.now();
      await app.api('POST', '/auth/forgotPassword', {
        body: { email: 'quarter@example.org', resetURL: 'http://ship.local/r/' },
      });
      await mailTo(app, 'quarter@example.org', 'Password Reset');
      const row = await app.ctx.database.db
        .selectFrom('users')
        .select('reset_password_expires')
        .where('id', '=', user.id)
        .executeTakeFirstOrThrow();
      expect(row.reset_password_expires! - before).toBeGreaterThanOrEqual(15 * 60_000 - 1000);
      expect(row.reset_password_expires! - before).toBeLessThanOrEqual(15 * 60_000 + 5000);
    });

    it('answers the same for an unknown address or a disabled account, and mails nothing', async () => {
      // Sealog answered 400 "no user found…" / "…is disabled", which told anyone which addresses
      // have accounts; the answer is now the one a known address gets.
      const none = await app.api('POST', '/auth/forgotPassword', {
        body: { email: 'nobody@example.org', resetURL: 'http://x.org/' },
      });
      expect(none.statusCode).toBe(200);
      expect(none.json()).toEqual({ statusCode: 200, message: 'password reset email sent' });
      await createUser({ email: 'off@example.org', disabled: true });
      const off = await app.api('POST', '/auth/forgotPassword', {
        body: { email: 'off@example.org', resetURL: 'http://x.org/' },
      });
      expect(off.statusCode).toBe(200);
      expect(off.json()).toEqual({ statusCode: 200, message: 'password reset email sent' });
      await createUser({ email: 'on@example.org' });
      const on = await app.api('POST', '/auth/forgotPassword', {
        body: { email: 'on@example.org', resetURL: 'http://x.org/' },
      });
      expect(on.body).toBe(none.body);
      await mailTo(app, 'on@example.org', 'Password Reset');
      expect(outboxMails(app).filter((m) => m.includes('Password Reset') && /To: (nobody|off)@/.test(m))).toEqual([]);
    });

    it('validates both payloads', async () => {
      const cases: Array<[string, string, unknown, string]> = [
        ['POST', '/auth/forgotPassword', { email: 'a@b.org', resetURL: 'not a url' }, '"resetURL" must be a valid uri'],
        ['POST', '/auth/forgotPassword', { resetURL: 'http://x.org/' }, '"email" is required'],
        ['POST', '/auth/forgotPassword', { email: 'a@b.org' }, '"resetURL" is required'],
        ['PATCH', '/auth/resetPassword', { password: 'x-long-enough' }, '"token" is required'],
        [
          'PATCH',
          '/auth/resetPassword',
          { token: '', password: 'x-long-enough' },
          '"token" is not allowed to be empty',
        ],
        [
          'PATCH',
          '/auth/resetPassword',
          { token: 'abc', password: 'short' },
          '"password" length must be at least 8 characters long',
        ],
        ['PATCH', '/auth/resetPassword', { token: 'abc', password: '' }, '"password" is not allowed to be empty'],
        [
          'PATCH',
          '/auth/resetPassword',
          { token: 'abc', password: 'x'.repeat(51) },
          '"password" length must be less than or equal to 50 characters long',
        ],
      ];
      for (const [method, url, body, message] of cases) {
        const res = await app.api(method as 'POST', url, { body });
        expect(res.json(), `${url} ${JSON.stringify(body)}`).toEqual(error(400, message));
      }
    });
  });

  describe('profile', () => {
    it('GET answers the public user only: no password, loginToken or reset fields', async () => {
      const user = await createUser();
      await app.api('POST', '/auth/forgotPassword', {
        body: { email: `${user.username}@example.org`, resetURL: 'http://x.org/' },
      });
      const token = await app.login(user.username, user.password);
      const res = await app.api('GET', '/auth/profile', { token });
      expect(res.statusCode).toBe(200);
      const profile = res.json() as Record<string, unknown>;
      expect(Object.keys(profile).sort()).toEqual(publicUserKeys);
      expect(profile).toMatchObject({
        id: user.id,
        username: user.username,
        email: `${user.username}@example.org`,
        roles: ['event_logger'],
      });
      expect(profile.last_login).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(res.body).not.toMatch(/\$2[aby]\$/);
    });

    it("PATCH changes the caller's own name and password, and nothing else", async () => {
      const user = await createUser();
      let token = await app.login(user.username, user.password);
      expect((await app.api('PATCH', '/auth/profile', { token, body: { fullname: 'Renamed' } })).statusCode).toBe(204);
      expect((await app.api('GET', '/auth/profile', { token })).json()).toMatchObject({ fullname: 'Renamed' });
      const changed = await app.api('PATCH', '/auth/profile', { token, body: { password: 'new-pass' } });
      expect(changed.statusCode).toBe(204);
      // The session that changed the password goes on with a fresh token (other sessions end).
      token = changed.headers['x-bathylog-token'] as string;
      expect(token).toMatch(/^ey/);
      expect(
        (await app.api('POST', '/auth/login', { body: { username: user.username, password: 'new-pass' } })).statusCode,
      ).toBe(200);

      const cases: Array<[unknown, number, string]> = [
        [{ roles: ['admin'] }, 400, '"roles" is not allowed'],
        [{ disabled: false }, 400, '"disabled" is not allowed'],
        [{ email: 'x@y.org' }, 400, '"email" is not allowed'],
        [{}, 400, '"value" must have at least 1 key'],
        [{ fullname: '' }, 400, '"fullname" is not allowed to be empty'],
        [{ username: 'admin' }, 400, 'Username already exists'],
        [{ username: 'Bad Name' }, 400, '"username" can not include whitespace'],
        [{ username: 'BadName' }, 400, '"username" can NOT include uppercase letters'],
        [{ username: 'u'.repeat(16) }, 400, '"username" length must be less than or equal to 15 characters long'],
        // The registration and reset rules for a new password (the original let a profile set 5 characters).
        [{ password: 'short' }, 400, '"password" length must be at least 8 characters long'],
        [{ password: 'has space' }, 400, '"password" can not include whitespace'],
      ];
      for (const [body, status, message] of cases) {
        const res = await app.api('PATCH', '/auth/profile', { token, body });
        expect(res.json(), JSON.stringify(body)).toEqual(error(status, message));
      }
      expect((await app.api('GET', '/auth/profile', { token })).json()).toMatchObject({
        roles: ['event_logger'],
        disabled: false,
      });
    });

    it('a user may keep their own username', async () => {
      const user = await createUser();
      const token = await app.login(user.username, user.password);
      expect((await app.api('PATCH', '/auth/profile', { token, body: { username: user.username } })).statusCode).toBe(
        204,
      );
    });

    it('needs a token', async () => {
      expect((await app.api('GET', '/auth/profile')).json()).toEqual(unauthorized('Missing authentication'));
      expect((await app.api('PATCH', '/auth/profile', { body: { fullname: 'x' } })).json()).toEqual(
        unauthorized('Missing authentication'),
      );
      expect((await app.api('GET', '/auth/profile/token')).json()).toEqual(unauthorized('Missing authentication'));
    });

    it('profile/token answers a fresh token built from the stored roles', async () => {
      const user = await createUser();
      const old = await app.login(user.username, user.password);
      expect(
        (await app.api('PATCH', `/users/${user.id}`, { token: admin, body: { roles: ['event_watcher'] } })).statusCode,
      ).toBe(204);
      expect((await app.api('GET', '/auth/profile/token', { token: old })).statusCode).toBe(401);
      const fresh = await app.login(user.username, user.password);
      const res = await app.api('GET', '/auth/profile/token', { token: fresh });
      expect(res.statusCode).toBe(200);
      const { token } = res.json() as { token: string };
      expect(claimsOf(token)).toMatchObject({
        id: user.id,
        roles: ['event_watcher'],
        scope: ['read_events', 'read_cruises', 'read_lowerings'],
      });
      expect((await app.api('GET', '/auth/validate', { token })).statusCode).toBe(200);
    });
  });

  describe('GET /auth/validate and the token checks made on every request', () => {
    it('answers {status: "valid"} for a good token', async () => {
      const res = await app.api('GET', '/auth/validate', { token: admin });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ status: 'valid' });
    });

    it('missing token, or not three parts: Missing authentication', async () => {
      const none = await app.api('GET', '/auth/validate');
      expect(none.statusCode).toBe(401);
      expect(none.json()).toEqual(unauthorized('Missing authentication'));
      expect(none.headers['www-authenticate']).toBe('Token error="Missing authentication"');
      expect((await app.api('GET', '/auth/validate', { token: 'abc' })).json()).toEqual(
        unauthorized('Missing authentication'),
      );
    });

    it('three parts that do not decode: Invalid token format', async () => {
      expect((await app.api('GET', '/auth/validate', { token: 'a.b.c' })).json()).toEqual(
        unauthorized('Invalid token format'),
      );
    });

    it('a bad signature: Invalid token', async () => {
      const forged = await signToken({ id: adminId, scope: ['admin'], roles: ['admin'] }, 'not-the-secret');
      expect((await app.api('GET', '/auth/validate', { token: forged })).json()).toEqual(unauthorized('Invalid token'));
    });

    it('a disabled user: Invalid credentials', async () => {
      const user = await createUser();
      const token = await app.login(user.username, user.password);
      expect((await app.api('PATCH', `/users/${user.id}`, { token: admin, body: { disabled: true } })).statusCode).toBe(
        204,
      );
      const res = await app.api('GET', '/auth/validate', { token });
      expect(res.json()).toEqual(unauthorized('Invalid credentials'));
      expect(res.headers[sessionEndHeader]).toBeUndefined();
    });

    it('changed or re-ordered roles: Invalid credentials', async () => {
      const user = await createUser({ roles: ['event_logger', 'event_watcher'] });
      const token = await app.login(user.username, user.password);
      expect((await app.api('GET', '/auth/validate', { token })).statusCode).toBe(200);
      await app.api('PATCH', `/users/${user.id}`, { token: admin, body: { roles: ['event_watcher', 'event_logger'] } });
      const res = await app.api('GET', '/auth/validate', { token });
      expect(res.json()).toEqual(unauthorized('Invalid credentials'));
      // Our client learns why, and says so on the login screen; a disabled user's 401 does not say it.
      expect(res.headers[sessionEndHeader]).toBe('roles-changed');
    });

    it('a deleted user, or a token without roles: Invalid credentials', async () => {
      const user = await createUser();
      const token = await app.login(user.username, user.password);
      expect((await app.api('DELETE', `/users/${user.id}`, { token: admin })).statusCode).toBe(204);
      expect((await app.api('GET', '/auth/validate', { token })).json()).toEqual(unauthorized('Invalid credentials'));
      const noRoles = await signToken({ id: adminId, scope: ['admin'], roles: [] }, 'test-secret');
      expect((await app.api('GET', '/auth/validate', { token: noRoles })).json()).toEqual(
        unauthorized('Invalid credentials'),
      );
    });

    it('reads the token from ?token=, a bare Authorization header, or the token cookie', async () => {
      const query = await app.app.inject({ method: 'GET', url: `/sealog-server/api/v1/auth/validate?token=${admin}` });
      expect(query.statusCode).toBe(200);
      const bare = await app.api('GET', '/auth/validate', { headers: { authorization: admin } });
      expect(bare.statusCode).toBe(200);
      const lower = await app.api('GET', '/auth/validate', { headers: { authorization: `bearer ${admin}` } });
      expect(lower.statusCode).toBe(200);
      const cookie = await app.api('GET', '/auth/validate', { headers: { cookie: `theme=dark; token=${admin}` } });
      expect(cookie.statusCode).toBe(200);
    });

    it('?token= takes precedence over the header, even when it is bad', async () => {
      const res = await app.app.inject({
        method: 'GET',
        url: '/sealog-server/api/v1/auth/validate?token=abc',
        headers: { authorization: `Bearer ${admin}` },
      });
      expect(res.json()).toEqual(unauthorized('Missing authentication'));
    });
  });
});

describe.each(engines)('login rate limit and registration settings on %s', (engine) => {
  let app: TestApp;

  beforeAll(async () => {
    app = await createTestApp(engine, {
      loginRateLimit: { max: 3, windowSeconds: 300 },
      registration: { disabled: true, roles: ['event_watcher'] },
    });
  });
  afterAll(async () => {
    await app?.close();
  });

  /** POST auth/login from the given client address. */
  const loginFrom = (address: string, body: Record<string, unknown>) =>
    app.app.inject({ method: 'POST', url: '/sealog-server/api/v1/auth/login', payload: body, remoteAddress: address });

  it('slows a guesser down per username and address, even with the right password there', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await loginFrom('10.1.0.1', { username: 'admin', password: 'wrong' });
      expect(res.statusCode).toBe(401);
    }
    const blocked = await loginFrom('10.1.0.1', { username: 'admin', password: 'demo' });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toEqual(error(429, 'Too many failed login attempts, try again in 1 second'));
    expect(Number(blocked.headers['retry-after'])).toBe(1);
    // Another user from the same address is not slowed by admin's failures.
    expect((await loginFrom('10.1.0.1', { username: 'guest', password: '' })).statusCode).toBe(200);
  });

  it('never locks the owner out from another address while a guesser is slowed', async () => {
    // Ten guesses and more (Sealog-era limits locked the account for everyone after ten).
    let slowed = 0;
    for (let i = 0; i < 12; i++) {
      const res = await loginFrom('10.2.0.66', { username: 'admin', password: `guess-${i}` });
      if (res.statusCode === 429) slowed++;
      else expect(res.statusCode).toBe(401);
    }
    expect(slowed).toBeGreaterThan(0);
    expect((await loginFrom('10.2.0.66', { username: 'admin', password: 'demo' })).statusCode).toBe(429);
    // The owner, from another address, logs in at once.
    const owner = await loginFrom('10.2.0.7', { username: 'admin', password: 'demo' });
    expect(owner.statusCode, owner.body).toBe(200);
  });

  it('limits failures by email address as by username', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await loginFrom('10.3.0.1', { username: 'guest@notarealserver.com', password: 'x' });
      expect(res.statusCode).toBe(401);
    }
    const blocked = await loginFrom('10.3.0.1', { username: 'GUEST@notarealserver.com', password: '' });
    expect(blocked.json()).toEqual(error(429, 'Too many failed login attempts, try again in 1 second'));
  });

  it('a successful login clears the failures of that username', async () => {
    const reg = await app.api('POST', '/auth/register', {
      body: { username: 'steady', fullname: 'S', email: 's@example.org', password: 'steady-pw' },
    });
    expect(reg.statusCode).toBe(201);
    const id = (reg.json() as { insertedId: string }).insertedId;
    // Registration is disabled in this configuration: enable the account as an admin would.
    await app.ctx.database.db.updateTable('users').set({ disabled: 0 }).where('id', '=', id).execute();
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 2; i++)
        expect((await loginFrom('10.4.0.1', { username: 'steady', password: 'no' })).statusCode).toBe(401);
      expect((await loginFrom('10.4.0.1', { username: 'steady', password: 'steady-pw' })).statusCode).toBe(200);
    }
  });

  it('a script retrying one stale password slows only itself, not the rest of its address', async () => {
    for (let i = 0; i < 30; i++) await loginFrom('10.5.0.1', { username: 'guest', password: 'stale' });
    expect((await loginFrom('10.5.0.1', { username: 'admin', password: 'demo' })).statusCode).toBe(200);
  });

  it('slows an address that fails on many usernames', async () => {
    // 2 × max different usernames per address.
    let status = 401;
    for (let i = 0; i < 20 && status === 401; i++) {
      status = (await loginFrom('10.6.0.1', { username: `ghost${i}`, password: 'x' })).statusCode;
    }
    expect(status).toBe(429);
    const fresh = await loginFrom('10.6.0.1', { username: 'someone-new', password: 'x' });
    expect(fresh.statusCode).toBe(429);
    expect((await loginFrom('10.6.0.2', { username: 'someone-new', password: 'x' })).statusCode).toBe(401);
  });

  it('registers users disabled with the configured roles when so configured', async () => {
    const res = await app.api('POST', '/auth/register', {
      body: { username: 'held', fullname: 'H', email: 'h@example.org', password: 'held-password' },
    });
    expect(res.statusCode).toBe(201);
    const row = await app.ctx.database.db
      .selectFrom('users')
      .select(['roles', 'disabled'])
      .where('username', '=', 'held')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ roles: '["event_watcher"]', disabled: 1 });
  });
});

describe.each(engines)('reset links with a configured public URL on %s', (engine) => {
  let app: TestApp;

  beforeAll(async () => {
    app = await createTestApp(engine, { publicUrl: 'https://ship.example/bathylog/' });
  });
  afterAll(async () => {
    await app?.close();
  });

  it("points at this server's client, whatever resetURL the caller sent", async () => {
    const res = await app.api('POST', '/auth/forgotPassword', {
      body: { email: 'admin@notarealserver.com', resetURL: 'https://evil.example/steal/' },
    });
    expect(res.statusCode).toBe(200);
    const mail = await mailTo(app, 'admin@notarealserver.com');
    expect(mail).toMatch(/https:\/\/ship\.example\/bathylog\/resetPassword\/[0-9a-f]{40}/);
    expect(mail).not.toContain('evil.example');
  });
});
