import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/database.js';
import { checkPassword } from '../lib/passwords.js';
import { randomAlphanumeric } from '../lib/random.js';
import { recordChange } from '../modules/audit/audit.js';
import { UsersRepository } from '../modules/users/users.repository.js';
import { buildUserRecord, toPublicUser } from '../modules/users/users.service.js';

/** The fixed ids Sealog scripts and clients know (docs/wire.md#seeded-records). */
export const systemIds = {
  admin: '5981f167212b348aed7fa9f5',
  guest: '5981f167212b348aed7fb9f5',
  pi: '5981f167212b348aed7fc9f5',
  asnapStatus: '59810167212b348aed7fa9f5',
  freeSpaceInBytes: '59810167212b348aed7fa9f6',
  freeSpacePercentage: '59810167212b348aed7fa9f7',
} as const;

const defaultCustomVars = [
  { id: systemIds.asnapStatus, custom_var_name: 'asnapStatus', custom_var_value: 'Off' },
  { id: systemIds.freeSpaceInBytes, custom_var_name: 'freeSpaceInBytes', custom_var_value: '0' },
  { id: systemIds.freeSpacePercentage, custom_var_name: 'freeSpacePercentage', custom_var_value: '0' },
];

/** The guest's roles: a demo guest may log events; a production guest only reads (no password). */
export const guestRoles = {
  demo: ['event_manager', 'event_logger', 'event_watcher'],
  production: ['event_watcher'],
} as const;

export interface SeedOptions {
  mode: 'demo' | 'production';
  /** Production: the admin password the operator chose; generated and printed once when null. */
  adminPassword: string | null;
  log: FastifyBaseLogger;
}

/**
 * Seeds the system users when the users table is empty, and any missing custom var.
 * Safe to run at every start.
 */
export async function seedSystem(database: Database, opts: SeedOptions): Promise<void> {
  const db = database.db;
  const users = new UsersRepository(db);
  if ((await users.count()) === 0) {
    let adminPassword = opts.adminPassword;
    if (opts.mode === 'demo') adminPassword ??= 'demo';
    if (!adminPassword) {
      adminPassword = randomAlphanumeric(16);
      opts.log.warn(
        `\n\n  Created the admin user. Its password is: ${adminPassword}\n  It is shown only once; change it after logging in.\n`,
      );
    }
    const now = Date.now();
    const demo = opts.mode === 'demo';
    const seeds = [
      {
        id: systemIds.admin,
        username: 'admin',
        fullname: 'Admin',
        email: 'admin@notarealserver.com',
        password: adminPassword,
        roles: ['admin', 'cruise_manager', 'event_logger', 'event_manager', 'event_watcher', 'template_manager'],
        system_user: true,
        disabled: false,
      },
      {
        id: systemIds.guest,
        username: 'guest',
        fullname: 'Guest',
        email: 'guest@notarealserver.com',
        password: '',
        roles: [...guestRoles[opts.mode]],
        system_user: true,
        disabled: false,
      },
      {
        id: systemIds.pi,
        username: 'pi',
        fullname: 'Primary Investigator',
        email: 'pi@notarealserver.com',
        // Disabled until an admin enables it; in production it gets no guessable password.
        password: demo ? 'demo' : randomAlphanumeric(24),
        roles: ['cruise_manager', 'event_logger', 'event_manager', 'event_watcher', 'template_manager'],
        system_user: true,
        disabled: true,
      },
    ];
    for (const seed of seeds) await users.insert(await buildUserRecord({ ...seed, last_login: now }));
  } else if (opts.mode === 'production') {
    await downgradeSeededGuest(database, opts.log);
  }
  const existing = new Set(
    (await db.selectFrom('custom_vars').select('custom_var_name').execute()).map((r) => r.custom_var_name),
  );
  const missing = defaultCustomVars.filter((v) => !existing.has(v.custom_var_name));
  if (missing.length) await db.insertInto('custom_vars').values(missing).execute();
}

/**
 * Production databases seeded before the guest became read-only still hold a guest without a
 * password that may delete every event. Such a guest is made read-only at start, but only while it
 * is exactly as seeded (enabled, no password, the old roles in their seeded order) and no change to
 * it was ever recorded: whatever an admin chose for the guest stays.
 */
async function downgradeSeededGuest(database: Database, log: FastifyBaseLogger): Promise<void> {
  const db = database.db;
  const users = new UsersRepository(db);
  const guest = await users.findById(systemIds.guest);
  if (!guest || guest.disabled || guest.roles.join(',') !== guestRoles.demo.join(',')) return;
  if (!(await checkPassword('', guest.password))) return;
  const changed = await db
    .selectFrom('audit_log')
    .select('record_id')
    .where('record_type', '=', 'user')
    .where('record_id', '=', systemIds.guest)
    // Logins and sign-outs are recorded too; they change nothing an admin chose.
    .where('action', 'not in', ['login', 'login_failed', 'sign_out_everywhere'])
    .limit(1)
    .executeTakeFirst();
  if (changed) return;
  await db.transaction().execute(async (trx) => {
    const repo = new UsersRepository(trx);
    await repo.update(systemIds.guest, { roles: [...guestRoles.production] });
    await recordChange(trx, null, {
      action: 'permissions',
      record_type: 'user',
      record_id: systemIds.guest,
      old_value: toPublicUser(guest),
      new_value: toPublicUser((await repo.findById(systemIds.guest))!),
    });
  });
  log.warn(
    'The guest user (no password) could create, change and delete events; it is now read-only (event_watcher). ' +
      'An admin can change its roles or disable it under Users.',
  );
}
