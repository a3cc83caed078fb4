import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import bcrypt from 'bcryptjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, engines, type TestApp } from '../../../test/test-app.js';

const ids = { admin: '5981f167212b348aed7fa9f5', guest: '5981f167212b348aed7fb9f5', pi: '5981f167212b348aed7fc9f5' };
const publicUserKeys = ['disabled', 'email', 'fullname', 'id', 'last_login', 'roles', 'system_user', 'username'];
const missing = '64a0000000000000000000ff';

function error(statusCode: number, message: string) {
  const phrase: Record<number, string> = {
    400: 'Bad Request',
    401: 'Unauthorized',
    403: 'Forbidden',
    404: 'Not Found',
    409: 'Conflict',
  };
  return { statusCode, error: phrase[statusCode], message };
}
const unauthorized = (message: string) => ({ ...error(401, message), attributes: { error: message } });
const forbidden = error(403, 'Insufficient scope');

interface PublicUser {
  id: string;
  username: string;
  fullname: string;
  email: string;
  last_login: string;
  roles: string[];
  system_user: boolean;
  disabled: boolean;
}

describe.each(engines)('users routes on %s', (engine) => {
  let app: TestApp;
  let admin: string;
  /** A cruise manager and an event logger, made through the API. */
  let manager: { id: string; token: string };
  let logger: { id: string; token: string };
  let counter = 0;

  async function createUser(
    overrides: Record<string, unknown> = {},
    token = admin,
  ): Promise<{ id: string; username: string; password: string }> {
    counter++;
    const username = (overrides.username as string | undefined) ?? `member${counter}`;
    const password = `pw-${counter}`;
    const res = await app.api('POST', '/users', {
      token,
      body: {
        username,
        fullname: `Member ${counter}`,
        email: `${username}@example.org`,
        password,
        roles: ['event_watcher'],
        ...overrides,
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    return { id: (res.json() as { insertedId: string }).insertedId, username, password };
  }

  async function userWithToken(roles: string[]): Promise<{ id: string; token: string }> {
    const u = await createUser({ roles });
    return { id: u.id, token: await app.login(u.username, u.password) };
  }

  const getUser = async (id: string) => (await app.api('GET', `/users/${id}`, { token: admin })).json() as PublicUser;

  beforeAll(async () => {
    app = await createTestApp(engine);
    admin = await app.login('admin', 'demo');
    manager = await userWithToken(['cruise_manager']);
    logger = await userWithToken(['event_logger']);
  });
  afterAll(async () => {
    await app?.close();
  });

  describe('GET /users', () => {
    it('admin sees every user, system users included, sorted by username, public fields only', async () => {
      const res = await app.api('GET', '/users', { token: admin });
      expect(res.statusCode).toBe(200);
      const users = res.json() as PublicUser[];
      const names = users.map((u) => u.username);
      expect(names).toEqual(expect.arrayContaining(['admin', 'guest', 'pi']));
      expect(names).toEqual([...names].sort());
      for (const u of users) expect(Object.keys(u).sort()).toEqual(publicUserKeys);
      expect(users.find((u) => u.username === 'admin')).toMatchObject({
        id: ids.admin,
        system_user: true,
        disabled: false,
      });
      expect(users.find((u) => u.username === 'pi')).toMatchObject({ id: ids.pi, system_user: true, disabled: true });
      expect(res.body).not.toMatch(/\$2[aby]\$|login_?token|password|reset/i);
    });

    it('admin filters on system_user (Python sends True/False)', async () => {
      const system = (await app.api('GET', '/users?system_user=True', { token: admin })).json() as PublicUser[];
      expect(system.map((u) => u.username).sort()).toEqual(['admin', 'guest', 'pi']);
      const regular = (await app.api('GET', '/users?system_user=false', { token: admin })).json() as PublicUser[];
      expect(regular.length).toBeGreaterThanOrEqual(2);
      expect(regular.every((u) => !u.system_user)).toBe(true);
    });

    it('sorts by last_login, pages with offset and limit, and answers [] past the end', async () => {
      const all = (await app.api('GET', '/users?sort=last_login', { token: admin })).json() as PublicUser[];
      const times = all.map((u) => Date.parse(u.last_login));
      expect(times).toEqual([...times].sort((a, b) => a - b));
      const page = (
        await app.api('GET', '/users?sort=last_login&offset=1&limit=2', { token: admin })
      ).json() as PublicUser[];
      expect(page.map((u) => u.id)).toEqual(all.slice(1, 3).map((u) => u.id));
      const offsetOnly = (
        await app.api('GET', '/users?sort=last_login&offset=2', { token: admin })
      ).json() as PublicUser[];
      expect(offsetOnly.map((u) => u.id)).toEqual(all.slice(2).map((u) => u.id));
      const past = await app.api('GET', '/users?offset=1000', { token: admin });
      expect(past.statusCode).toBe(200);
      expect(past.json()).toEqual([]);
    });

    it('validates the query', async () => {
      const cases: Array<[string, string]> = [
        ['limit=0', '"limit" must be greater than or equal to 1'],
        ['offset=-1', '"offset" must be zero or more'],
        ['sort=email', '"sort" must be one of [username, last_login]'],
        ['system_user=maybe', '"system_user" must be a boolean'],
        ['foo=1', '"foo" is not allowed'],
      ];
      for (const [query, message] of cases)
        expect((await app.api('GET', `/users?${query}`, { token: admin })).json(), query).toEqual(error(400, message));
    });

    it('a cruise manager sees regular users only, whatever it asks', async () => {
      for (const url of ['/users', '/users?system_user=true']) {
        const users = (await app.api('GET', url, { token: manager.token })).json() as PublicUser[];
        expect(users.length).toBeGreaterThan(0);
        expect(users.every((u) => !u.system_user)).toBe(true);
        expect(users.map((u) => u.id)).toContain(manager.id);
      }
    });

    it('an event logger gets 403 and no token gets 401', async () => {
      expect((await app.api('GET', '/users', { token: logger.token })).json()).toEqual(forbidden);
      expect((await app.api('GET', '/users')).json()).toEqual(unauthorized('Missing authentication'));
    });
  });

  describe('GET /users/:id', () => {
    it('admin reads any user; unknown ids are 404; malformed ids are 400', async () => {
      const res = await app.api('GET', `/users/${ids.pi}`, { token: admin });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        id: ids.pi,
        username: 'pi',
        fullname: 'Primary Investigator',
        email: 'pi@notarealserver.com',
      });
      expect(Object.keys(res.json() as object).sort()).toEqual(publicUserKeys);
      expect((await app.api('GET', `/users/${missing}`, { token: admin })).json()).toEqual(
        error(404, `No record found for id: ${missing}`),
      );
      expect((await app.api('GET', '/users/abc', { token: admin })).json()).toEqual(
        error(400, '"id" must be a 24-character hex id'),
      );
    });

    it('a cruise manager reads regular users but not system users', async () => {
      expect((await app.api('GET', `/users/${logger.id}`, { token: manager.token })).statusCode).toBe(200);
      expect((await app.api('GET', `/users/${manager.id}`, { token: manager.token })).statusCode).toBe(200);
      expect((await app.api('GET', `/users/${ids.admin}`, { token: manager.token })).json()).toEqual(
        error(400, 'The requesting user is unauthorized to make that request'),
      );
    });

    it('an event logger gets 403, even for itself', async () => {
      expect((await app.api('GET', `/users/${logger.id}`, { token: logger.token })).json()).toEqual(forbidden);
    });
  });

  describe('POST /users', () => {
    it('a user made without a password cannot log in until one is set; the guest still logs in without one', async () => {
      const login = (username: string, password: string) =>
        app.api('POST', '/auth/login', { body: { username, password } });
      const { id, username } = await createUser({ password: '' });
      expect((await login(username, '')).json()).toEqual(error(401, 'unknown user or bad password'));
      // Emptied later by an admin: the same.
      const other = await createUser();
      expect((await app.api('PATCH', `/users/${other.id}`, { token: admin, body: { password: '' } })).statusCode).toBe(
        204,
      );
      expect((await login(other.username, '')).statusCode).toBe(401);
      expect((await login(other.username, other.password)).statusCode).toBe(401);
      // Stored with an empty password before this rule: refused too.
      await app.ctx.database.db
        .updateTable('users')
        .set({ password: await bcrypt.hash('', 4) })
        .where('id', '=', id)
        .execute();
      expect((await login(username, '')).statusCode).toBe(401);
      // Once a password is set, it logs in.
      await app.api('PATCH', `/users/${id}`, { token: admin, body: { password: 'now-set-1' } });
      expect((await login(username, 'now-set-1')).statusCode).toBe(200);
      expect((await login('guest', '')).statusCode).toBe(200);
    });

    it('admin creates a user with a chosen id; stored defaults; a set-password link is mailed', async () => {
      const id = '64a0000000000000000000a1';
      const res = await app.api('POST', '/users', {
        token: admin,
        body: {
          id,
          username: 'chosen',
          fullname: 'Chosen One',
          email: 'chosen@example.org',
          password: 'pw',
          roles: ['event_watcher'],
          resetURL: 'http://ship.local/reset/',
        },
        // Without a public URL or an allowed origin the mail holds the bare path (lib/reset-link.ts).
        headers: { host: 'ship.local' },
      });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toEqual({ acknowledged: true, insertedId: id });
      expect(await getUser(id)).toEqual({
        id,
        username: 'chosen',
        fullname: 'Chosen One',
        email: 'chosen@example.org',
        last_login: '1970-01-01T00:00:00.000Z',
        roles: ['event_watcher'],
        system_user: false,
        disabled: false,
      });
      expect((await app.api('POST', '/auth/login', { body: { username: 'chosen', password: 'pw' } })).statusCode).toBe(
        200,
      );

      const outbox = path.join(app.dataDir, 'outbox');
      const mail = readdirSync(outbox)
        .map((f) => readFileSync(path.join(outbox, f), 'utf8'))
        .find((m) => m.includes('To: chosen@example.org'));
      expect(mail).not.toContain('ship.local');
      const token = /\n\/resetPassword\/([0-9a-f]{40}) /.exec(mail ?? '')?.[1];
      expect(token).toBeDefined();
      // The new user's reset link lasts 24 hours and works.
      const row = await app.ctx.database.db
        .selectFrom('users')
        .select('reset_password_expires')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(row.reset_password_expires! - Date.now()).toBeGreaterThan(23 * 3600_000);
      expect(
        (await app.api('PATCH', '/auth/resetPassword', { body: { token, password: 'set-by-me' } })).statusCode,
      ).toBe(204);
      expect(
        (await app.api('POST', '/auth/login', { body: { username: 'chosen', password: 'set-by-me' } })).statusCode,
      ).toBe(200);
    });

    it('stores a client id in lower case, as MongoDB does, and finds it in either case', async () => {
      const res = await app.api('POST', '/users', {
        token: admin,
        body: {
          id: '64A0000000000000000000B2',
          username: 'upper-id',
          fullname: 'U',
          email: 'u@example.org',
          password: '',
          roles: ['event_watcher'],
        },
      });
      expect(res.json()).toEqual({ acknowledged: true, insertedId: '64a0000000000000000000b2' });
      expect((await app.api('GET', '/users/64A0000000000000000000B2', { token: admin })).json()).toMatchObject({
        id: '64a0000000000000000000b2',
      });
      const again = await app.api('POST', '/users', {
        token: admin,
        body: {
          id: '64a0000000000000000000b2',
          username: 'upper-id-2',
          fullname: 'U',
          email: 'u2@example.org',
          password: '',
          roles: ['event_watcher'],
        },
      });
      expect(again.json()).toEqual(error(400, 'duplicate uesr ID'));
    });

    it('refuses a duplicate id with "duplicate uesr ID" and a duplicate username with 409', async () => {
      const base = { fullname: 'D', password: '', roles: ['event_watcher'] };
      const dupId = await app.api('POST', '/users', {
        token: admin,
        body: { ...base, id: ids.guest, username: 'other-guest', email: 'og@example.org' },
      });
      expect(dupId.json()).toEqual(error(400, 'duplicate uesr ID'));
      const dupName = await app.api('POST', '/users', {
        token: admin,
        body: { ...base, username: 'guest', email: 'g2@example.org' },
      });
      expect(dupName.json()).toEqual(error(409, 'Username already exists'));
    });

    it('admin may create system users and disabled users', async () => {
      const u = await createUser({ system_user: true, disabled: true });
      expect(await getUser(u.id)).toMatchObject({ system_user: true, disabled: true });
    });

    it('validates the payload with Joi-style messages', async () => {
      const ok = {
        username: 'valid',
        fullname: 'Valid',
        email: 'valid@example.org',
        password: '',
        roles: ['event_watcher'],
      };
      const cases: Array<[unknown, string]> = [
        [{ ...ok, roles: undefined }, '"roles" is required'],
        [{ ...ok, roles: [] }, '"roles" must contain at least 1 items'],
        [{ ...ok, roles: 'admin' }, '"roles" must be of type array'],
        [{ ...ok, email: 'not-an-email' }, '"email" must be a valid email'],
        [{ ...ok, username: '' }, '"username" is not allowed to be empty'],
        // The user form's rules on the server too: they apply to imports as well (they POST each user).
        [{ ...ok, username: 'u'.repeat(16) }, '"username" length must be less than or equal to 15 characters long'],
        [{ ...ok, username: 'Bad Name' }, '"username" can not include whitespace'],
        [{ ...ok, username: 'BadName' }, '"username" can NOT include uppercase letters'],
        [{ ...ok, fullname: undefined }, '"fullname" is required'],
        [{ ...ok, password: 'p'.repeat(51) }, '"password" length must be less than or equal to 50 characters long'],
        [{ ...ok, system_user: 'yes' }, '"system_user" must be a boolean'],
        [{ ...ok, id: 'short' }, '"id" must be a 24-character hex id'],
        [{ ...ok, resetURL: 'nope' }, '"resetURL" must be a valid uri'],
        [{ ...ok, last_login: '2020-01-01' }, '"last_login" is not allowed'],
      ];
      for (const [body, message] of cases) {
        const res = await app.api('POST', '/users', { token: admin, body });
        expect(res.json(), JSON.stringify(body)).toEqual(error(400, message));
      }
    });

    it('a cruise manager creates regular users, but no admins, system users or disabled users', async () => {
      const made = await createUser({ roles: ['event_logger', 'event_watcher'] }, manager.token);
      expect(await getUser(made.id)).toMatchObject({ roles: ['event_logger', 'event_watcher'], system_user: false });
      const base = { fullname: 'X', email: 'x@example.org', password: '', roles: ['event_watcher'] };
      expect(
        (
          await app.api('POST', '/users', {
            token: manager.token,
            body: { ...base, username: 'sys1', system_user: true },
          })
        ).json(),
      ).toEqual(error(401, 'Only admins can create system users'));
      expect(
        (
          await app.api('POST', '/users', {
            token: manager.token,
            body: { ...base, username: 'boss', roles: ['admin'] },
          })
        ).json(),
      ).toEqual(error(400, 'Only admins create other admins'));
      expect(
        (
          await app.api('POST', '/users', { token: manager.token, body: { ...base, username: 'off1', disabled: true } })
        ).json(),
      ).toEqual(error(400, 'Only admins can enable/disabled users'));
      const names = ((await app.api('GET', '/users', { token: admin })).json() as PublicUser[]).map((u) => u.username);
      expect(names).not.toEqual(expect.arrayContaining(['sys1']));
      expect(names).not.toContain('boss');
      expect(names).not.toContain('off1');
    });

    it('an event logger gets 403; no token 401', async () => {
      const body = { username: 'nope', fullname: 'N', email: 'n@example.org', password: '', roles: ['event_watcher'] };
      expect((await app.api('POST', '/users', { token: logger.token, body })).json()).toEqual(forbidden);
      expect((await app.api('POST', '/users', { body })).json()).toEqual(unauthorized('Missing authentication'));
    });
  });

  describe('PATCH /users/:id', () => {
    it('admin edits names, roles, system_user and disabled', async () => {
      const u = await createUser();
      const res = await app.api('PATCH', `/users/${u.id}`, {
        token: admin,
        body: {
          fullname: 'Edited',
          username: `${u.username}-x`,
          roles: ['event_manager'],
          system_user: true,
          disabled: true,
        },
      });
      expect(res.statusCode).toBe(204);
      expect(res.body).toBe('');
      expect(await getUser(u.id)).toMatchObject({
        fullname: 'Edited',
        username: `${u.username}-x`,
        roles: ['event_manager'],
        system_user: true,
        disabled: true,
      });
    });

    it('the owner edits its own name and password without any scope', async () => {
      const u = await createUser({ roles: ['event_watcher'] });
      const token = await app.login(u.username, u.password);
      expect((await app.api('PATCH', `/users/${u.id}`, { token, body: { fullname: 'Me Myself' } })).statusCode).toBe(
        204,
      );
      expect((await app.api('PATCH', `/users/${u.id}`, { token, body: { password: 'mine' } })).statusCode).toBe(204);
      expect(
        (await app.api('POST', '/auth/login', { body: { username: u.username, password: 'mine' } })).statusCode,
      ).toBe(200);
      expect((await getUser(u.id)).fullname).toBe('Me Myself');
    });

    it('refuses what the caller may not do, with Sealog messages', async () => {
      const target = await createUser();
      const cases: Array<[string, string, unknown, string]> = [
        ['logger edits someone else', target.id, { fullname: 'x' }, 'Only admins and the owner can edit users'],
        ['logger makes itself admin', logger.id, { roles: ['admin'] }, 'Only admins create other admins'],
        ['logger changes its roles', logger.id, { roles: ['cruise_manager'] }, 'Only user managers can change roles'],
        ['logger enables/disables', logger.id, { disabled: false }, 'Only admins can enable/disabled users'],
        [
          'logger promotes itself',
          logger.id,
          { system_user: true },
          'Only admins can promote/demote users to system users',
        ],
      ];
      for (const [what, id, body, message] of cases) {
        expect((await app.api('PATCH', `/users/${id}`, { token: logger.token, body })).json(), what).toEqual(
          error(400, message),
        );
      }
      const managerCases: Array<[string, string, unknown, string]> = [
        ['manager grants admin', target.id, { roles: ['admin'] }, 'Only admins create other admins'],
        ['manager disables', target.id, { disabled: true }, 'Only admins can enable/disabled users'],
        ['manager promotes', target.id, { system_user: true }, 'Only admins can promote/demote users to system users'],
        ['manager edits a system user', ids.guest, { fullname: 'x' }, 'Only admins can edit system users and admins'],
        ['manager edits the admin', ids.admin, { password: 'x' }, 'Only admins can edit system users and admins'],
      ];
      for (const [what, id, body, message] of managerCases) {
        expect((await app.api('PATCH', `/users/${id}`, { token: manager.token, body })).json(), what).toEqual(
          error(400, message),
        );
      }
      expect((await getUser(target.id)).roles).toEqual(['event_watcher']);
      expect((await app.api('POST', '/auth/login', { body: { username: 'admin', password: 'demo' } })).statusCode).toBe(
        200,
      );
    });

    it('a cruise manager edits regular users, roles included', async () => {
      const u = await createUser();
      expect(
        (
          await app.api('PATCH', `/users/${u.id}`, {
            token: manager.token,
            body: { roles: ['event_logger'], fullname: 'By Manager' },
          })
        ).statusCode,
      ).toBe(204);
      expect(await getUser(u.id)).toMatchObject({ roles: ['event_logger'], fullname: 'By Manager' });
    });

    it('a cruise manager cannot edit a non-system admin either', async () => {
      const other = await createUser({ roles: ['admin'] });
      expect(
        (await app.api('PATCH', `/users/${other.id}`, { token: manager.token, body: { fullname: 'x' } })).json(),
      ).toEqual(error(400, 'Only admins can edit system users and admins'));
    });

    it('nobody disables themself', async () => {
      expect(
        (await app.api('PATCH', `/users/${ids.admin}`, { token: admin, body: { disabled: true } })).json(),
      ).toEqual(error(400, 'Users cannot disable themselves'));
      expect((await app.api('GET', '/auth/validate', { token: admin })).statusCode).toBe(200);
    });

    it('disabling locks the user out at once; enabling lets it back in', async () => {
      const u = await createUser();
      const token = await app.login(u.username, u.password);
      await app.api('PATCH', `/users/${u.id}`, { token: admin, body: { disabled: true } });
      expect((await app.api('GET', '/auth/profile', { token })).json()).toEqual(unauthorized('Invalid credentials'));
      expect(
        (await app.api('POST', '/auth/login', { body: { username: u.username, password: u.password } })).json(),
      ).toEqual(error(401, 'account is disabled'));
      await app.api('PATCH', `/users/${u.id}`, { token: admin, body: { disabled: false } });
      expect(
        (await app.api('POST', '/auth/login', { body: { username: u.username, password: u.password } })).statusCode,
      ).toBe(200);
      // Re-enabling does not revive the old token's roles check: its roles still match, so it works again.
      expect((await app.api('GET', '/auth/profile', { token })).statusCode).toBe(200);
    });

    it('changing roles invalidates the old token at once', async () => {
      const u = await createUser({ roles: ['event_logger'] });
      const token = await app.login(u.username, u.password);
      await app.api('PATCH', `/users/${u.id}`, { token: admin, body: { roles: ['event_watcher'] } });
      expect((await app.api('GET', '/auth/profile', { token })).json()).toEqual(unauthorized('Invalid credentials'));
    });

    it('unknown id, taken username, bad payloads', async () => {
      expect((await app.api('PATCH', `/users/${missing}`, { token: admin, body: { fullname: 'x' } })).json()).toEqual(
        error(400, `No record found for id: ${missing}`),
      );
      const u = await createUser();
      const cases: Array<[unknown, string]> = [
        [{ username: 'guest' }, 'Username already exists'],
        [{}, '"value" must have at least 1 key'],
        [{ email: 'new@example.org' }, '"email" is not allowed'],
        [{ roles: [] }, '"roles" must contain at least 1 items'],
        [{ disabled: 'no' }, '"disabled" must be a boolean'],
        [{ username: 'u'.repeat(16) }, '"username" length must be less than or equal to 15 characters long'],
        [{ username: 'Bad Name' }, '"username" can not include whitespace'],
        [{ username: 'BadName' }, '"username" can NOT include uppercase letters'],
      ];
      for (const [body, message] of cases) {
        expect((await app.api('PATCH', `/users/${u.id}`, { token: admin, body })).json(), JSON.stringify(body)).toEqual(
          error(400, message),
        );
      }
      expect((await app.api('PATCH', '/users/xyz', { token: admin, body: { fullname: 'x' } })).json()).toEqual(
        error(400, '"id" must be a 24-character hex id'),
      );
      expect((await app.api('PATCH', `/users/${u.id}`, { body: { fullname: 'x' } })).json()).toEqual(
        unauthorized('Missing authentication'),
      );
    });
  });

  describe('DELETE /users/:id', () => {
    it('admin deletes a user, which leaves every access list; a second delete is 404', async () => {
      const u = await createUser();
      await app.ctx.database.db
        .insertInto('cruises')
        .values({
          id: '64a00000000000000000c001',
          cruise_id: 'TEST01',
          start_ts: 0,
          stop_ts: 1,
          cruise_location: '',
          cruise_tags: '[]',
          cruise_hidden: 0,
          cruise_access_list: JSON.stringify([ids.pi, u.id]),
          cruise_additional_meta: '{}',
        })
        .execute();
      const res = await app.api('DELETE', `/users/${u.id}`, { token: admin });
      expect(res.statusCode).toBe(204);
      expect(res.body).toBe('');
      expect((await app.api('GET', `/users/${u.id}`, { token: admin })).statusCode).toBe(404);
      const cruise = await app.ctx.database.db
        .selectFrom('cruises')
        .select('cruise_access_list')
        .where('id', '=', '64a00000000000000000c001')
        .executeTakeFirstOrThrow();
      expect(JSON.parse(cruise.cruise_access_list)).toEqual([ids.pi]);
      expect((await app.api('DELETE', `/users/${u.id}`, { token: admin })).json()).toEqual(
        error(404, `No record found for user id: ${u.id}`),
      );
    });

    it('admin, guest and pi can never be deleted; nobody deletes themself', async () => {
      expect((await app.api('DELETE', `/users/${ids.guest}`, { token: admin })).json()).toEqual(
        error(400, 'The guest user can not be deleted'),
      );
      expect((await app.api('DELETE', `/users/${ids.pi}`, { token: admin })).json()).toEqual(
        error(400, 'The pi user can not be deleted'),
      );
      expect((await app.api('DELETE', `/users/${ids.admin}`, { token: admin })).json()).toEqual(
        error(400, 'Users cannot delete themselves'),
      );
      expect((await app.api('DELETE', `/users/${ids.admin}`, { token: manager.token })).json()).toEqual(
        error(400, 'The admin user can not be deleted'),
      );
      expect((await app.api('DELETE', `/users/${manager.id}`, { token: manager.token })).json()).toEqual(
        error(400, 'Users cannot delete themselves'),
      );
      const names = ((await app.api('GET', '/users', { token: admin })).json() as PublicUser[]).map((u) => u.username);
      expect(names).toEqual(expect.arrayContaining(['admin', 'guest', 'pi']));
    });

    it('a cruise manager deletes regular users but not system users or admins', async () => {
      const regular = await createUser();
      expect((await app.api('DELETE', `/users/${regular.id}`, { token: manager.token })).statusCode).toBe(204);
      const system = await createUser({ system_user: true });
      expect((await app.api('DELETE', `/users/${system.id}`, { token: manager.token })).json()).toEqual(
        error(401, 'Only admins can delete system users'),
      );
      const otherAdmin = await createUser({ roles: ['admin'] });
      expect((await app.api('DELETE', `/users/${otherAdmin.id}`, { token: manager.token })).json()).toEqual(
        error(401, 'Only admins can delete system users'),
      );
      expect((await app.api('GET', `/users/${system.id}`, { token: admin })).statusCode).toBe(200);
    });

    it('an event logger gets 403, no token 401, a malformed id 400', async () => {
      const u = await createUser();
      expect((await app.api('DELETE', `/users/${u.id}`, { token: logger.token })).json()).toEqual(forbidden);
      expect((await app.api('DELETE', `/users/${u.id}`)).json()).toEqual(unauthorized('Missing authentication'));
      expect((await app.api('DELETE', '/users/123', { token: admin })).json()).toEqual(
        error(400, '"id" must be a 24-character hex id'),
      );
      expect((await app.api('GET', `/users/${u.id}`, { token: admin })).statusCode).toBe(200);
    });
  });

  describe('GET /users/:id/token and /loginToken', () => {
    it("admin reads any user's token and loginToken; both log that user in", async () => {
      const u = await createUser();
      const res = await app.api('GET', `/users/${u.id}/token`, { token: admin });
      expect(res.statusCode).toBe(200);
      const { token } = res.json() as { token: string };
      expect((await app.api('GET', '/auth/profile', { token })).json()).toMatchObject({
        id: u.id,
        username: u.username,
      });
      const lt = await app.api('GET', `/users/${u.id}/loginToken`, { token: admin });
      expect(lt.statusCode).toBe(200);
      const { loginToken } = lt.json() as { loginToken: string };
      expect(Object.keys(lt.json() as object)).toEqual(['loginToken']);
      expect(loginToken).toMatch(/^[A-Za-z0-9]{20}$/);
      expect(((await app.api('POST', '/auth/login', { body: { loginToken } })).json() as { id: string }).id).toBe(u.id);
    });

    it('the owner reads its own; others (cruise managers too) get 401', async () => {
      expect((await app.api('GET', `/users/${logger.id}/token`, { token: logger.token })).statusCode).toBe(200);
      expect((await app.api('GET', `/users/${logger.id}/loginToken`, { token: logger.token })).statusCode).toBe(200);
      const message = "Only admins and the owner of this user can access this user's token.";
      for (const suffix of ['token', 'loginToken']) {
        expect((await app.api('GET', `/users/${logger.id}/${suffix}`, { token: manager.token })).json()).toEqual(
          error(401, message),
        );
        expect((await app.api('GET', `/users/${ids.admin}/${suffix}`, { token: logger.token })).json()).toEqual(
          error(401, message),
        );
        expect((await app.api('GET', `/users/${missing}/${suffix}`, { token: admin })).json()).toEqual(
          error(404, `No user found for id: ${missing}`),
        );
        expect((await app.api('GET', `/users/${logger.id}/${suffix}`)).json()).toEqual(
          unauthorized('Missing authentication'),
        );
      }
    });
  });

  describe('DELETE /users/all', () => {
    it('an event logger gets 403', async () => {
      expect((await app.api('DELETE', '/users/all', { token: logger.token })).json()).toEqual(forbidden);
    });

    it('a cruise manager gets 403 and every user stays', async () => {
      const regular = await createUser();
      const res = await app.api('DELETE', '/users/all', { token: manager.token });
      expect(res.json()).toEqual(forbidden);
      expect((await app.api('GET', `/users/${regular.id}`, { token: admin })).statusCode).toBe(200);
    });

    it('admin deletes every non-system user and keeps the system users', async () => {
      await createUser();
      const res = await app.api('DELETE', '/users/all', { token: admin });
      expect(res.statusCode).toBe(204);
      const left = (await app.api('GET', '/users', { token: admin })).json() as PublicUser[];
      expect(left.length).toBeGreaterThanOrEqual(3);
      expect(left.every((u) => u.system_user)).toBe(true);
      expect(left.map((u) => u.username)).toEqual(expect.arrayContaining(['admin', 'guest', 'pi']));
    });
  });
});
