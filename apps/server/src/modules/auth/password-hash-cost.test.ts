import bcrypt from 'bcryptjs';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../config.js';
import { createTestApp, engines, type TestApp } from '../../../test/test-app.js';

/**
 * The bcrypt cost of stored passwords (docs/security.md#password-hashes): 10 unless
 * BATHYLOG_PASSWORD_HASH_COST says otherwise; a hash keeps its cost; an unknown username is checked
 * against a hash of the current cost.
 */
describe('passwordHashCost setting', () => {
  it('is 10 by default, read from BATHYLOG_PASSWORD_HASH_COST, and refused outside 4-14', () => {
    expect(loadConfig({}, {}).passwordHashCost).toBe(10);
    expect(loadConfig({ BATHYLOG_PASSWORD_HASH_COST: '12' }, {}).passwordHashCost).toBe(12);
    expect(() => loadConfig({ BATHYLOG_PASSWORD_HASH_COST: '3' }, {})).toThrow(/passwordHashCost/);
    expect(() => loadConfig({ BATHYLOG_PASSWORD_HASH_COST: '15' }, {})).toThrow(/passwordHashCost/);
  });
});

describe.each(engines)('stored password hashes on %s', (engine) => {
  const apps: TestApp[] = [];
  afterAll(async () => {
    for (const t of apps) await t.close();
  });

  async function storedHashOfNewUser(t: TestApp, username: string): Promise<string> {
    const admin = await t.login('admin', 'demo');
    const made = await t.api('POST', '/users', {
      token: admin,
      body: {
        username,
        fullname: username,
        email: `${username}@example.org`,
        password: 'pw-of-user',
        roles: ['event_logger'],
      },
    });
    expect(made.statusCode).toBe(201);
    const row = await t.ctx.database.db
      .selectFrom('users')
      .select('password')
      .where('username', '=', username)
      .executeTakeFirstOrThrow();
    return row.password;
  }

  it('are made at the configured cost, 10 by default as Sealog, and log in at any cost', async () => {
    const sealog = await createTestApp(engine, { passwordHashCost: 10 });
    apps.push(sealog);
    const ten = await storedHashOfNewUser(sealog, 'costten');
    expect(ten).toMatch(/^\$2[ab]\$10\$/);
    expect(await sealog.login('costten', 'pw-of-user')).toBeTruthy();

    const stronger = await createTestApp(engine, { passwordHashCost: 11 });
    apps.push(stronger);
    expect(await storedHashOfNewUser(stronger, 'costeleven')).toMatch(/^\$2[ab]\$11\$/);
    // A hash made at another cost still logs in.
    await stronger.ctx.database.db
      .updateTable('users')
      .set({ password: ten })
      .where('username', '=', 'costeleven')
      .execute();
    expect(await stronger.login('costeleven', 'pw-of-user')).toBeTruthy();
  });

  it('checks an unknown username against a hash of the current cost', async () => {
    const t = await createTestApp(engine, { passwordHashCost: 6 });
    apps.push(t);
    const compare = vi.spyOn(bcrypt, 'compare');
    try {
      const res = await t.api('POST', '/auth/login', { body: { username: 'nobody-here', password: 'guess' } });
      expect(res.statusCode).toBe(401);
      expect(compare).toHaveBeenCalledTimes(1);
      expect(String(compare.mock.calls[0]![1])).toMatch(/^\$2[ab]\$06\$/);
    } finally {
      compare.mockRestore();
    }
  });
});
