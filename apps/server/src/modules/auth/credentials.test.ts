import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import bcrypt from 'bcryptjs';
import { Migrator, sql, type MigrationProvider } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { messages } from '@bathylog/shared';
import { outboxMails } from '../../../test/outbox.js';
import { createTestApp, engines, openTestDatabase, type TestApp } from '../../../test/test-app.js';
import { buildApp } from '../../app.js';
import { loadConfig } from '../../config.js';
import { migrationsFor } from '../../db/migrations/index.js';

const unauthorized = (message: string) => ({
  statusCode: 401,
  error: 'Unauthorized',
  message,
  attributes: { error: message },
});
const badLoginToken = { statusCode: 401, error: 'Unauthorized', message: 'bad loginToken' };

/** The newest reset link mailed to `to` (mails are written just after the answer). */
async function resetLinkTo(app: TestApp, to: string): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(
      () =>
        (link = outboxMails(app)
          .filter((m) => m.includes(`To: ${to}`) && m.includes('Password Reset'))
          .map((m) => /\S*\/[0-9a-f]{40}/.exec(m)?.[0])
          .pop()),
      { timeout: 5000 },
    )
    .toBeDefined();
  return link!;
}

/**
 * Credentials that really end, and login hardening: the loginToken is stored hashed and ends
 * with the user's sessions; password changes end API tokens and reset links; reset links point
 * only at this server's clients; logins of unknown users cost a password check; logins and
 * "sign out everywhere" are in the audit trail.
 */
describe.each(engines)('credentials on %s', (engine) => {
  let t: TestApp;
  let admin: string;
  let counter = 0;

  const createUser = async (extra: Record<string, unknown> = {}) => {
    counter++;
    const username = `cred${counter}`;
    const password = `pw-cred-${counter}`;
    const email = `${username}@example.org`;
    const res = await t.api('POST', '/users', {
      token: admin,
      body: { username, fullname: username, email, password, roles: ['event_logger'], ...extra },
    });
    expect(res.statusCode, res.body).toBe(201);
    return { id: (res.json() as { insertedId: string }).insertedId, username, password, email };
  };
  const loginToken = async (id: string, token = admin) => {
    const res = await t.api('GET', `/users/${id}/loginToken`, { token });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { loginToken: string }).loginToken;
  };
  const loginWith = (token: string) => t.api('POST', '/auth/login', { body: { loginToken: token } });
  const validate = (token: string) => t.api('GET', '/auth/validate', { token });
  const auditOf = async (id: string) =>
    t.ctx.database.db
      .selectFrom('audit_log')
      .select(['action', 'actor_kind', 'actor_name', 'route', 'old_value', 'new_value'])
      .where('record_id', '=', id)
      .orderBy('seq')
      .execute();

  beforeAll(async () => {
    t = await createTestApp(engine, { allowedOrigins: ['https://client.example'] });
    admin = await t.login('admin', 'demo');
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });
  afterAll(() => t?.close());

  describe('loginToken', () => {
    it('is stored as a hash only, shown the same on every read, and logs the user in', async () => {
      const user = await createUser();
      const token = await loginToken(user.id);
      expect(token).toMatch(/^[A-Za-z0-9]{20}$/);
      expect(await loginToken(user.id)).toBe(token);
      const row = await t.ctx.database.db
        .selectFrom('users')
        .selectAll()
        .where('id', '=', user.id)
        .executeTakeFirstOrThrow();
      expect(row.login_token).toBe(createHash('sha256').update(token).digest('hex'));
      expect(JSON.stringify(row)).not.toContain(token);
      const res = await loginWith(token);
      expect(res.statusCode).toBe(200);
      expect((res.json() as { id: string }).id).toBe(user.id);
    });

    it('ends with "sign out everywhere"; the next read shows a new one', async () => {
      const user = await createUser();
      const token = await loginToken(user.id);
      const session = await t.login(user.username, user.password);
      expect((await t.api('POST', '/auth/signOutEverywhere', { token: session })).statusCode).toBe(204);
      expect((await loginWith(token)).json()).toEqual(badLoginToken);
      const fresh = await loginToken(user.id);
      expect(fresh).not.toBe(token);
      expect((await loginWith(fresh)).statusCode).toBe(200);
    });

    it('ends when the password changes, by the owner or by an admin', async () => {
      const user = await createUser();
      const session = await t.login(user.username, user.password);
      const token = await loginToken(user.id, session);
      const res = await t.api('PATCH', '/auth/profile', { token: session, body: { password: 'changed-pw-1' } });
      expect(res.statusCode).toBe(204);
      expect((await loginWith(token)).json()).toEqual(badLoginToken);
      // The session the change came from continues with the renewed token.
      const renewed = res.headers['x-bathylog-token'] as string;
      const second = await loginToken(user.id, renewed);
      expect((await loginWith(second)).statusCode).toBe(200);
      expect(
        (await t.api('PATCH', `/users/${user.id}`, { token: admin, body: { password: 'changed-pw-2' } })).statusCode,
      ).toBe(204);
      expect((await loginWith(second)).json()).toEqual(badLoginToken);
    });

    it('is refused when issued before a revocation mark of the user', async () => {
      const user = await createUser();
      const token = await loginToken(user.id);
      await t.ctx.database.db
        .updateTable('users')
        .set({ api_tokens_valid_after: Math.floor(Date.now() / 1000) + 5 })
        .where('id', '=', user.id)
        .execute();
      expect((await loginWith(token)).json()).toEqual(badLoginToken);
    });
  });

  it('a password change ends the API tokens minted before it', async () => {
    const user = await createUser();
    const session = await t.login(user.username, user.password);
    const apiToken = ((await t.api('GET', `/users/${user.id}/token`, { token: session })).json() as { token: string })
      .token;
    expect((await validate(apiToken)).statusCode).toBe(200);
    const res = await t.api('PATCH', '/auth/profile', { token: session, body: { password: 'another-pw' } });
    expect(res.statusCode).toBe(204);
    expect((await validate(apiToken)).json()).toEqual(unauthorized(messages.tokenRevoked));
    // The browser session it was changed from goes on.
    expect((await validate(res.headers['x-bathylog-token'] as string)).statusCode).toBe(200);
  });

  describe('password reset', () => {
    it('without a public URL, a forged Host or a foreign resetURL gets no link: the mail holds the bare path', async () => {
      const user = await createUser();
      // The resetURL on the origin the (forged) Host names, as a stock client would build it.
      const res = await t.api('POST', '/auth/forgotPassword', {
        body: { email: user.email, resetURL: 'http://evil.example/resetPassword/' },
        headers: { host: 'evil.example' },
      });
      expect(res.json()).toEqual({ statusCode: 200, message: 'password reset email sent' });
      expect(await resetLinkTo(t, user.email)).toMatch(/^\/resetPassword\/[0-9a-f]{40}$/);
      const other = await createUser();
      await t.api('POST', '/auth/forgotPassword', {
        body: { email: other.email, resetURL: 'http://bathylog.ship:8000/resetPassword/' },
        headers: { host: 'bathylog.ship:8000' },
      });
      expect(await resetLinkTo(t, other.email)).toMatch(/^\/resetPassword\/[0-9a-f]{40}$/);
      expect(outboxMails(t).join('\n')).not.toMatch(/evil\.example|bathylog\.ship/);
    });

    it('keeps a resetURL on a configured client origin', async () => {
      const client = await createUser();
      await t.api('POST', '/auth/forgotPassword', {
        body: { email: client.email, resetURL: 'https://client.example/resetPassword/' },
      });
      expect(await resetLinkTo(t, client.email)).toMatch(/^https:\/\/client\.example\/resetPassword\/[0-9a-f]{40}$/);
    });

    it('a reset link dies when the password is changed another way', async () => {
      const user = await createUser();
      await t.api('POST', '/auth/forgotPassword', {
        body: { email: user.email, resetURL: 'http://localhost/resetPassword/' },
      });
      const token = /([0-9a-f]{40})$/.exec(await resetLinkTo(t, user.email))![1]!;
      const session = await t.login(user.username, user.password);
      expect(
        (await t.api('PATCH', '/auth/profile', { token: session, body: { password: 'changed-by-owner' } })).statusCode,
      ).toBe(204);
      const reset = await t.api('PATCH', '/auth/resetPassword', { body: { token, password: 'taken-over' } });
      expect(reset.json()).toEqual({
        statusCode: 401,
        error: 'invalid token',
        message: 'password reset token is invalid',
      });
      expect(
        (await t.api('POST', '/auth/login', { body: { username: user.username, password: 'taken-over' } })).statusCode,
      ).toBe(401);
    });
  });

  describe('login', () => {
    it('checks a password hash for an unknown username, a disabled user and a known one alike', async () => {
      const disabled = await createUser({ disabled: true });
      const compare = vi.spyOn(bcrypt, 'compare');
      const cases = [
        { username: 'no-such-user', password: 'whatever' },
        { username: 'nobody@nowhere.example', password: 'whatever' },
        { username: disabled.username, password: 'wrong' },
        { username: 'admin', password: 'wrong' },
      ];
      for (const body of cases) {
        compare.mockClear();
        const res = await t.api('POST', '/auth/login', { body });
        expect(res.json(), body.username).toEqual({
          statusCode: 401,
          error: 'Unauthorized',
          message: 'unknown user or bad password',
        });
        expect(compare, body.username).toHaveBeenCalledTimes(1);
      }
    });

    it('is recorded in the audit trail, success and failure, without the password', async () => {
      const user = await createUser();
      expect(
        (await t.api('POST', '/auth/login', { body: { username: user.username, password: 'bad-guess' } })).statusCode,
      ).toBe(401);
      await t.login(user.username, user.password);
      const token = await loginToken(user.id);
      expect((await loginWith(token)).statusCode).toBe(200);
      const rows = await auditOf(user.id);
      const logins = rows.filter((r) => r.action.startsWith('login'));
      expect(logins.map((r) => [r.action, r.actor_kind, r.actor_name, r.route])).toEqual([
        ['login_failed', 'none', null, 'POST /sealog-server/api/v1/auth/login'],
        ['login', 'user', user.username, 'POST /sealog-server/api/v1/auth/login'],
        ['login', 'user', user.username, 'POST /sealog-server/api/v1/auth/login'],
      ]);
      expect(logins.map((r) => JSON.parse(r.new_value!) as { method: string }).map((v) => v.method)).toEqual([
        'password',
        'password',
        'loginToken',
      ]);
      const text = JSON.stringify(rows);
      for (const secret of ['bad-guess', user.password, token]) expect(text).not.toContain(secret);
    });
  });

  it('"sign out everywhere" is recorded in the audit trail, by whoever did it', async () => {
    const user = await createUser();
    const session = await t.login(user.username, user.password);
    expect((await t.api('POST', '/auth/signOutEverywhere', { token: session })).statusCode).toBe(204);
    expect((await t.api('POST', `/users/${user.id}/signOutEverywhere`, { token: admin })).statusCode).toBe(204);
    const rows = (await auditOf(user.id)).filter((r) => r.action === 'sign_out_everywhere');
    expect(rows.map((r) => [r.actor_name, r.route])).toEqual([
      [user.username, 'POST /sealog-server/api/v1/auth/signOutEverywhere'],
      ['admin', 'POST /sealog-server/api/v1/users/:id/signOutEverywhere'],
    ]);
  });
});

describe.each(engines)('log lines on %s', (engine) => {
  it('carry no token from a query string or a reset path', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bathylog-logs-'));
    const lines: string[] = [];
    const config = loadConfig(
      {},
      {
        mode: 'production',
        adminPassword: 'demo',
        dataDir,
        secret: 'test-secret',
        logLevel: 'info',
        asnap: { enabled: false },
        freeSpaceIntervalSeconds: 0,
        webDir: path.join(dataDir, 'no-client'),
      },
    );
    const { database, drop } = await openTestDatabase(engine);
    const { app } = await buildApp({ config, database, logStream: { write: (line) => lines.push(line) } });
    try {
      await app.ready();
      const login = await app.inject({
        method: 'POST',
        url: '/sealog-server/api/v1/auth/login',
        payload: { username: 'admin', password: 'demo' },
      });
      const token = (login.json() as { token: string }).token;
      const secrets = [token, 'AbCdEfGhIj0123456789', 'f00dfeedf00dfeedf00dfeedf00dfeedf00dfeed'];
      await app.inject({ method: 'GET', url: `/sealog-server/api/v1/auth/validate?token=${token}` });
      await app.inject({
        method: 'GET',
        url: `/sealog-server/api/v1/cruises?limit=1&token=${encodeURIComponent(token)}`,
      });
      await app.inject({ method: 'GET', url: `/sealog-server/api/v1/nowhere?loginToken=${secrets[1]}&x=1` });
      await app.inject({ method: 'GET', url: `/resetPassword/${secrets[2]}` });
      // Array-style names, and a token under a name of no meaning: redacted by name and by shape.
      await app.inject({ method: 'GET', url: `/sealog-server/api/v1/events?token[]=${token}&limit=1` });
      await app.inject({ method: 'GET', url: `/sealog-server/api/v1/events?session=${token}&limit=2` });
      const log = lines.join('');
      expect(log).toContain('/sealog-server/api/v1/events?token[]=[redacted]&limit=1');
      expect(log).toContain('/sealog-server/api/v1/events?session=[redacted]&limit=2');
      expect(log).toContain('/sealog-server/api/v1/auth/validate?token=[redacted]');
      expect(log).toContain('/sealog-server/api/v1/cruises?limit=1&token=[redacted]');
      expect(log).toContain('/sealog-server/api/v1/nowhere?loginToken=[redacted]&x=1');
      expect(log).toContain('/resetPassword/[redacted]');
      for (const secret of secrets) expect(log).not.toContain(secret);
    } finally {
      await app.close();
      await drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('one access line per request, with its status and time, and no credential from a header', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bathylog-logs-'));
    const lines: string[] = [];
    const config = loadConfig(
      {},
      {
        mode: 'production',
        adminPassword: 'demo',
        dataDir,
        secret: 'test-secret',
        logLevel: 'info',
        asnap: { enabled: false },
        freeSpaceIntervalSeconds: 0,
        webDir: path.join(dataDir, 'no-client'),
      },
    );
    const { database, drop } = await openTestDatabase(engine);
    const { app } = await buildApp({ config, database, logStream: { write: (line) => lines.push(line) } });
    try {
      await app.ready();
      const login = await app.inject({
        method: 'POST',
        url: '/sealog-server/api/v1/auth/login',
        payload: { username: 'admin', password: 'demo' },
      });
      const token = (login.json() as { token: string }).token;
      lines.length = 0;
      const ok = await app.inject({
        method: 'GET',
        url: '/sealog-server/api/v1/custom_vars',
        headers: { authorization: `Bearer ${token}`, cookie: `token=${token}` },
      });
      expect(ok.statusCode).toBe(200);
      const refused = await app.inject({ method: 'GET', url: '/sealog-server/api/v1/custom_vars' });
      expect(refused.statusCode).toBe(401);
      const entries = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
      const access = entries.filter((e) => e.req !== undefined || e.res !== undefined);
      // Two requests, two lines: each names the request, its answer and how long it took.
      expect(access).toHaveLength(2);
      expect(access.map((e) => [(e.req as { url: string }).url, (e.res as { statusCode: number }).statusCode])).toEqual(
        [
          ['/sealog-server/api/v1/custom_vars', 200],
          ['/sealog-server/api/v1/custom_vars', 401],
        ],
      );
      for (const e of access) expect(typeof e.responseTime).toBe('number');
      // pino's line, key for key (the access line is put together without pino: plugins/request-log.ts).
      for (const e of access) {
        expect(Object.keys(e)).toEqual([
          'level',
          'time',
          'pid',
          'hostname',
          'reqId',
          'req',
          'res',
          'responseTime',
          'msg',
        ]);
        expect(e).toMatchObject({ level: 30, hostname: os.hostname(), msg: 'request completed' });
        expect(Math.abs((e.time as number) - Date.now())).toBeLessThan(60_000);
      }
      // Each line names its request's id (error lines of the same request carry it too), and the process.
      expect(access.map((e) => typeof e.reqId)).toEqual(['string', 'string']);
      expect(access[0]!.reqId).not.toBe(access[1]!.reqId);
      for (const e of access) expect(e.pid).toBe(process.pid);
      expect(entries.filter((e) => e.msg === 'incoming request')).toEqual([]);
      expect(lines.join('')).not.toContain(token);
    } finally {
      await app.close();
      await drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe.each(engines)('migration 015 on %s', (engine) => {
  it('replaces each stored loginToken by its hash, and the token still logs in', async () => {
    const test = await openTestDatabase(engine);
    const { database } = test;
    try {
      if (database.schema) await database.db.schema.createSchema(database.schema).ifNotExists().execute();
      const provider: MigrationProvider = { getMigrations: async () => migrationsFor(database.dialect) };
      const migrator = new Migrator({
        db: database.db,
        provider,
        ...(database.schema ? { migrationTableSchema: database.schema } : {}),
      });
      expect((await migrator.migrateTo('013-set-based-insert-triggers')).error).toBeUndefined();
      const clear = 'Kiosk0Token0In0Clear';
      await sql`insert into users (id, username, fullname, email, password, roles, system_user, disabled,
        last_login, login_token, sessions_valid_after, api_tokens_valid_after)
        values ('aaaaaaaaaaaaaaaaaaaaaaaa', 'kiosk', 'Kiosk', 'kiosk@example.org', 'x', '["event_watcher"]', 0, 0,
        0, ${clear}, 0, 0)`.execute(database.db);
      expect((await migrator.migrateToLatest()).error).toBeUndefined();
      const row = await database.db
        .selectFrom('users')
        .selectAll()
        .where('id', '=', 'aaaaaaaaaaaaaaaaaaaaaaaa')
        .executeTakeFirstOrThrow();
      expect(row.login_token).toBe(createHash('sha256').update(clear).digest('hex'));
      expect(row.login_token_sealed).toBeNull();
      expect(Number(row.login_token_at)).toBe(0);

      const config = loadConfig(
        {},
        {
          mode: 'production',
          dataDir: mkdtempSync(path.join(os.tmpdir(), 'bathylog-m15-')),
          secret: 's',
          logLevel: 'silent',
          asnap: { enabled: false },
          freeSpaceIntervalSeconds: 0,
        },
      );
      const { app } = await buildApp({ config, database, logger: false, seed: false });
      try {
        const res = await app.inject({
          method: 'POST',
          url: '/sealog-server/api/v1/auth/login',
          payload: { loginToken: clear },
        });
        expect(res.statusCode, res.body).toBe(200);
      } finally {
        await app.close();
        rmSync(config.dataDir, { recursive: true, force: true });
      }
    } finally {
      await test.drop().catch(() => {});
    }
  });
});
