import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { messages } from '@bathylog/shared';
import { createTestApp, engines, type TestApp } from '../../../test/test-app.js';
import { createUser } from '../../../test/api-fixtures.js';
import { userCache, userCacheLifetimeMs } from './user-cache.js';
import type { UserRecord } from './users.repository.js';
import { UsersRepository } from './users.repository.js';
import { internalChannels } from '../../realtime/internal-channels.js';

describe.each(engines)('the cached caller on %s', (engine) => {
  let t: TestApp;
  let admin: string;
  let n = 0;

  beforeEach(async () => {
    // The clock moves on past the moment after a login (itself a change of the user, whose reads
    // are not kept), so the reads below come from the cache.
    vi.useFakeTimers({ toFake: ['Date'] });
    t = await createTestApp(engine);
    admin = await t.login('admin', 'demo');
  });
  afterEach(async () => {
    vi.useRealTimers();
    await t.close();
  });

  const whoAmI = (token: string) => t.api('GET', '/custom_vars', { token });
  const settle = () => vi.setSystemTime(Date.now() + 2 * userCacheLifetimeMs);

  it('a role changed through the repository takes effect on the very next request', async () => {
    const { id, token } = await createUser(t, admin, `u${++n}`, ['event_logger']);
    // Twice, so the second answer came from the cache.
    settle();
    expect((await whoAmI(token)).statusCode).toBe(200);
    expect((await whoAmI(token)).statusCode).toBe(200);
    await new UsersRepository(t.ctx.database.db).update(id, { roles: ['event_watcher'] });
    const res = await whoAmI(token);
    expect(res.statusCode).toBe(401);
    expect((res.json() as { message: string }).message).toBe(messages.invalidCredentials);
  });

  it('a user disabled by an admin is refused at once, and let back in at once', async () => {
    const { id, token } = await createUser(t, admin, `u${++n}`, ['event_logger']);
    settle();
    expect((await whoAmI(token)).statusCode).toBe(200);
    expect((await t.api('PATCH', `/users/${id}`, { token: admin, body: { disabled: true } })).statusCode).toBe(204);
    expect((await whoAmI(token)).statusCode).toBe(401);
    expect((await t.api('PATCH', `/users/${id}`, { token: admin, body: { disabled: false } })).statusCode).toBe(204);
    expect((await whoAmI(token)).statusCode).toBe(200);
  });

  it('keeps the caller for a moment only: a change made outside the server shows after the lifetime', async () => {
    const { id, token } = await createUser(t, admin, `u${++n}`, ['event_logger']);
    settle();
    expect((await whoAmI(token)).statusCode).toBe(200);
    await t.ctx.database.db.updateTable('users').set({ disabled: 1 }).where('id', '=', id).execute();
    vi.setSystemTime(Date.now() + userCacheLifetimeMs + 1);
    expect((await whoAmI(token)).statusCode).toBe(401);
  });

  it('a deleted user is refused at once', async () => {
    const { id, token } = await createUser(t, admin, `u${++n}`, ['event_logger']);
    settle();
    expect((await whoAmI(token)).statusCode).toBe(200);
    expect((await t.api('DELETE', `/users/${id}`, { token: admin })).statusCode).toBe(204);
    expect((await whoAmI(token)).statusCode).toBe(401);
  });

  it('sign out everywhere revokes a cached caller at once', async () => {
    const { id, token } = await createUser(t, admin, `u${++n}`, ['event_logger']);
    settle();
    expect((await whoAmI(token)).statusCode).toBe(200);
    expect((await t.api('POST', `/users/${id}/signOutEverywhere`, { token: admin })).statusCode).toBe(204);
    const res = await whoAmI(token);
    expect(res.statusCode).toBe(401);
    expect((res.json() as { message: string }).message).toBe(messages.tokenRevoked);
  });

  /**
   * The status of the caller's next requests until it changes from 200, for up to 5 s of real time
   * (the bus delivers asynchronously on PostgreSQL); the clock of the caches stands still meanwhile
   * (vi.waitFor would move it on).
   */
  const statusOnceDelivered = async (token: string) => {
    let status = 200;
    for (let i = 0; i < 100 && status === 200; i++) {
      await new Promise((r) => setTimeout(r, 50));
      status = (await whoAmI(token)).statusCode;
    }
    return status;
  };

  // What another server process (PostgreSQL with several servers) does to a user reaches this one
  // as the row changed in the shared database and the message on the bus.
  it("another server's change and revocation take effect here when their message arrives", async () => {
    const { id, token } = await createUser(t, admin, `u${++n}`, ['event_logger']);
    settle();
    expect((await whoAmI(token)).statusCode).toBe(200);
    await t.ctx.database.db.updateTable('users').set({ disabled: 1 }).where('id', '=', id).execute();
    // The clock stands still: without the message the cached caller would stay.
    expect((await whoAmI(token)).statusCode).toBe(200);
    t.ctx.bus.publish('updateUsers', { id, change: 'update' });
    expect(await statusOnceDelivered(token)).toBe(401);

    const other = await createUser(t, admin, `u${++n}`, ['event_logger']);
    settle();
    expect((await whoAmI(other.token)).statusCode).toBe(200);
    const later = Math.floor(Date.now() / 1000) + 60;
    await t.ctx.database.db
      .updateTable('users')
      .set({ sessions_valid_after: later, api_tokens_valid_after: later })
      .where('id', '=', other.id)
      .execute();
    expect((await whoAmI(other.token)).statusCode).toBe(200);
    t.ctx.bus.publish(internalChannels.revoked, { userId: other.id });
    expect(await statusOnceDelivered(other.token)).toBe(401);
    expect(((await whoAmI(other.token)).json() as { message: string }).message).toBe(messages.tokenRevoked);
  });
});

describe('userCache.load', () => {
  const source = {};
  const user = (roles: string[]): UserRecord => ({
    id: 'u1',
    username: 'u1',
    fullname: 'U One',
    email: '',
    password: '',
    roles,
    system_user: false,
    disabled: false,
    last_login: 0,
    login_token: '',
    reset_password_token: null,
    reset_password_expires: null,
    sessions_valid_after: 0,
    api_tokens_valid_after: 0,
  });
  afterEach(() => userCache.clear());

  it('callers missing the same user at once share one read, and each gets its own copy', async () => {
    let release!: () => void;
    const read = vi.fn(() => new Promise<UserRecord>((resolve) => (release = () => resolve(user(['event_logger'])))));
    const a = userCache.load(source, 'u1', read);
    const b = userCache.load(source, 'u1', read);
    release();
    const [ua, ub] = await Promise.all([a, b]);
    expect(read).toHaveBeenCalledTimes(1);
    expect(ua).toEqual(ub);
    ua!.roles.push('admin');
    expect(ub!.roles).toEqual(['event_logger']);
  });

  it('a caller after a change does not join a read that began before it', async () => {
    const releases: Array<() => void> = [];
    let roles = ['event_logger'];
    const read = vi.fn(() => {
      const r = roles;
      return new Promise<UserRecord>((resolve) => releases.push(() => resolve(user(r))));
    });
    const before = userCache.load(source, 'u1', read);
    roles = ['event_watcher'];
    userCache.invalidate(['u1']);
    const after = userCache.load(source, 'u1', read);
    for (const release of releases) release();
    expect((await before)!.roles).toEqual(['event_logger']);
    expect((await after)!.roles).toEqual(['event_watcher']);
    expect(read).toHaveBeenCalledTimes(2);
  });
});
