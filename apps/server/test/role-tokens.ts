import { guestRoles, systemIds } from '../src/seed/system.js';
import type { TestApp } from './test-app.js';

/**
 * The callers of the role rules (docs/roles-and-access.md): one user per role, the guest account, no token,
 * and a user who was disabled after logging in (its token must stop working at once).
 */
export const callerKinds = [
  'admin',
  'cruise_manager',
  'event_manager',
  'template_manager',
  'event_logger',
  'event_watcher',
  'guest',
  'none',
  'disabled',
] as const;
export type CallerKind = (typeof callerKinds)[number];

const singleRoles = ['cruise_manager', 'event_manager', 'template_manager', 'event_logger', 'event_watcher'] as const;

export interface RoleUsers {
  /** Token per caller kind; `none` has no token. */
  tokens: Record<CallerKind, string | undefined>;
  /** User id per caller kind (admin and guest are the seeded accounts). */
  ids: Partial<Record<CallerKind, string>>;
}

/** Creates a user holding exactly one role per role name, plus a disabled one, and logs each in. */
export async function createRoleUsers(t: TestApp): Promise<RoleUsers> {
  const admin = await t.login('admin', 'demo');
  // The rules are checked for the guest as the demo seeds it (it logs and manages events); the
  // production guest is a plain event_watcher (seed/system.test.ts).
  const demoGuest = await t.api('PATCH', `/users/${systemIds.guest}`, {
    token: admin,
    body: { roles: [...guestRoles.demo] },
  });
  if (demoGuest.statusCode !== 204) throw new Error(`guest roles: ${demoGuest.statusCode} ${demoGuest.body}`);
  const tokens = { admin, guest: await t.login('guest', ''), none: undefined } as Record<
    CallerKind,
    string | undefined
  >;
  const ids: Partial<Record<CallerKind, string>> = {};
  const make = async (username: string, roles: string[]) => {
    const res = await t.api('POST', '/users', {
      token: admin,
      body: { username, fullname: username, email: `${username}@example.org`, password: 'secret-pw', roles },
    });
    if (res.statusCode !== 201) throw new Error(`creating ${username}: ${res.statusCode} ${res.body}`);
    return { id: (res.json() as { insertedId: string }).insertedId, token: await t.login(username, 'secret-pw') };
  };
  for (const role of singleRoles) {
    // Usernames are at most 15 characters (the user form's rule).
    const made = await make(`u_${role.replace('_manager', '_mgr')}`.replace('u_event_mgr', 'u_event_manager'), [role]);
    tokens[role] = made.token;
    ids[role] = made.id;
  }
  const disabled = await make('u_disabled', ['event_logger', 'event_watcher']);
  const off = await t.api('PATCH', `/users/${disabled.id}`, { token: admin, body: { disabled: true } });
  if (off.statusCode !== 204) throw new Error(`disabling: ${off.statusCode} ${off.body}`);
  tokens.disabled = disabled.token;
  ids.disabled = disabled.id;
  return { tokens, ids };
}
