import { afterEach, describe, expect, it } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import { createTestApp, engines, openTestDatabase, type TestApp } from '../../test/test-app.js';
import { migrateToLatest } from '../db/database.js';
import { UsersRepository } from '../modules/users/users.repository.js';
import { seedSystem, systemIds } from './system.js';

const silentLog = { warn: () => {}, info: () => {} } as unknown as FastifyBaseLogger;
const oldGuestRoles = ['event_manager', 'event_logger', 'event_watcher'];

describe.each(engines)('the seeded guest on %s', (engine) => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  const guestLogin = async (app: TestApp) => {
    const res = await app.api('POST', '/auth/login', { body: { username: 'guest', password: '' } });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { token: string }).token;
  };

  it('in production only reads: it logs in without a password and cannot create or delete events', async () => {
    t = await createTestApp(engine);
    const admin = await t.login('admin', 'demo');
    const created = await t.api('POST', '/events', { token: admin, body: { event_value: 'KEEP' } });
    expect(created.statusCode).toBe(201);
    const id = (created.json() as { insertedId: string }).insertedId;

    const guest = await guestLogin(t);
    expect((await new UsersRepository(t.ctx.database.db).findById(systemIds.guest))!.roles).toEqual(['event_watcher']);
    expect((await t.api('GET', '/events', { token: guest })).statusCode).toBe(200);
    expect((await t.api('POST', '/events', { token: guest, body: { event_value: 'X' } })).statusCode).toBe(403);
    expect((await t.api('DELETE', `/events/${id}`, { token: guest })).statusCode).toBe(403);
    expect((await t.api('GET', `/events/${id}`, { token: admin })).statusCode).toBe(200);
  });

  it('in demo mode may still log and manage events', async () => {
    const { database, drop } = await openTestDatabase(engine);
    try {
      await migrateToLatest(database);
      await seedSystem(database, { mode: 'demo', adminPassword: null, log: silentLog });
      const guest = await new UsersRepository(database.db).findById(systemIds.guest);
      expect(guest).toMatchObject({ roles: oldGuestRoles, disabled: false });
    } finally {
      await drop();
    }
  });

  it('an existing production guest left as seeded becomes read-only at start; an admin-edited one stays', async () => {
    t = await createTestApp(engine);
    const users = new UsersRepository(t.ctx.database.db);
    // A database seeded before the change: the guest as it was then, never touched by an admin.
    await users.update(systemIds.guest, { roles: oldGuestRoles });
    const before = await guestLogin(t);
    await seedSystem(t.ctx.database, { mode: 'production', adminPassword: null, log: t.ctx.log });
    expect((await users.findById(systemIds.guest))!.roles).toEqual(['event_watcher']);
    // Its earlier session carried the old roles: it no longer works.
    expect((await t.api('GET', '/events', { token: before })).statusCode).toBe(401);
    const admin = await t.login('admin', 'demo');
    const audit = (await t.api('GET', '/audit?record_type=user', { token: admin })).json() as {
      entries: Array<{ record_id: string; action: string; actor_kind: string; new_value: { roles: string[] } }>;
    };
    // Logins are in the trail too; the downgrade is the one change to the guest.
    expect(audit.entries.filter((e) => !e.action.startsWith('login'))).toEqual([
      expect.objectContaining({
        record_id: systemIds.guest,
        action: 'permissions',
        actor_kind: 'none',
        new_value: expect.objectContaining({ roles: ['event_watcher'] }),
      }),
    ]);

    // An admin gives the guest write rights again: a later start keeps them.
    const patched = await t.api('PATCH', `/users/${systemIds.guest}`, { token: admin, body: { roles: oldGuestRoles } });
    expect(patched.statusCode, patched.body).toBe(204);
    await seedSystem(t.ctx.database, { mode: 'production', adminPassword: null, log: t.ctx.log });
    expect((await users.findById(systemIds.guest))!.roles).toEqual(oldGuestRoles);
  });
});
