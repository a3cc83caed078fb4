/** Roles and the scopes each grants (docs/roles-and-access.md#scopes). Order matters: scopes keep first occurrence. */
export const roles = [
  'admin',
  'cruise_manager',
  'event_manager',
  'template_manager',
  'event_logger',
  'power_logger',
  'aux_data_inserter',
  'event_watcher',
  'guest',
] as const;

export type Role = (typeof roles)[number];

/**
 * How a role reads on every screen (user form, device keys): the words users know, the cruise
 * manager with the configured word for a cruise. A role without its own words reads as its id in
 * words ("power_logger" → "Power Logger"), never as the raw id.
 */
export function roleLabel(role: string, cruiseWord = 'Cruise'): string {
  switch (role) {
    case 'admin':
      return 'Admin';
    case 'cruise_manager':
      return `${cruiseWord} Manager`;
    default:
      return role
        .split('_')
        .filter(Boolean)
        .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
        .join(' ');
  }
}

export const scopes = [
  'admin',
  'read_events',
  'write_events',
  'read_event_templates',
  'write_event_templates',
  'read_cruises',
  'write_cruises',
  'read_lowerings',
  'write_lowerings',
  'read_users',
  'write_users',
] as const;

export type Scope = (typeof scopes)[number];

const roleScopes: Record<Exclude<Role, 'admin'>, Scope[]> = {
  event_watcher: ['read_events', 'read_cruises', 'read_lowerings'],
  // A guest account the WHOI login page offers (`GET users/guests`): it reads as a watcher does.
  guest: ['read_events', 'read_cruises', 'read_lowerings'],
  event_logger: ['read_events', 'write_events', 'read_event_templates', 'read_cruises', 'read_lowerings'],
  // Sealog 2.4's power_logger: an event_logger who also uses admin-only templates
  // (`capabilityRoles.adminOnlyTemplates`; docs/sealog-clients.md#the-power_logger-role).
  power_logger: ['read_events', 'write_events', 'read_event_templates', 'read_cruises', 'read_lowerings'],
  // The scripts a deployment runs to add navigation, sensor data and frame grabs to the events
  // others log (docs/security.md#who-may-change-an-events-data): they read events and write aux data.
  aux_data_inserter: ['read_events', 'write_events', 'read_cruises', 'read_lowerings'],
  event_manager: ['read_events', 'write_events', 'read_event_templates', 'read_cruises', 'read_lowerings'],
  template_manager: [
    'read_events',
    'write_events',
    'read_event_templates',
    'write_event_templates',
    'read_cruises',
    'read_lowerings',
  ],
  cruise_manager: [
    'read_events',
    'write_events',
    'read_event_templates',
    'write_event_templates',
    'read_cruises',
    'write_cruises',
    'read_lowerings',
    'write_lowerings',
    'read_users',
    'write_users',
  ],
};

/** Scopes for a user's roles: admin gives only `admin`; otherwise the union in role order. */
export function scopesForRoles(userRoles: readonly string[]): Scope[] {
  if (userRoles.includes('admin')) return ['admin'];
  const out: Scope[] = [];
  for (const role of userRoles) {
    // Own keys only: any string may be stored as a role, 'toString' included.
    const granted = Object.hasOwn(roleScopes, role) ? roleScopes[role as Exclude<Role, 'admin'>] : [];
    for (const scope of granted) {
      if (!out.includes(scope)) out.push(scope);
    }
  }
  return out;
}

/** True when the caller's scopes contain at least one of the required ones. */
export function hasAnyScope(callerScopes: readonly string[], required: readonly Scope[]): boolean {
  return required.some((s) => callerScopes.includes(s));
}

/**
 * Who may do what (docs/roles-and-access.md#what-each-role-may-do): one table for the client's menus and screens and
 * the server's checks.
 */
export const capabilityRoles = {
  /** The System Management dropdown. */
  systemManagement: ['admin', 'cruise_manager', 'event_manager', 'template_manager'],
  /** Cruises, Lowerings and Users entries and screens. */
  cruiseManagement: ['admin', 'cruise_manager'],
  /** Event Management entry and screen. */
  eventManagement: ['admin', 'cruise_manager', 'event_manager'],
  /** Deleting any event (others delete only the events they created, for an hour). */
  deleteAnyEvent: ['admin', 'event_manager'],
  /** Changing any event beyond its comment (others only the events they created: rules/event-changes.ts). */
  changeAnyEvent: ['admin', 'event_manager'],
  /**
   * Adding, changing or deleting any event's aux data (others only that of the events they
   * created): the aux-data inserters a deployment names by this role (rules/event-changes.ts).
   */
  changeAnyAuxData: ['admin', 'event_manager', 'aux_data_inserter'],
  /** Attaching pictures to, or removing them from, any event (others only to their own). */
  attachToAnyEvent: ['admin', 'event_manager'],
  /** Event Templates entry and screen. */
  eventTemplates: ['admin', 'cruise_manager', 'template_manager'],
  /** Tasks and Toggle ASNAP. */
  adminOnly: ['admin'],
  /** Template buttons and free text on the logging console. */
  eventLogging: ['admin', 'cruise_manager', 'event_logger', 'power_logger'],
  /** The console's event history. */
  eventHistory: ['admin', 'cruise_manager', 'event_logger', 'power_logger', 'event_watcher', 'guest'],
  /** Adding and editing comments from the review screens' lists; others get View Details. */
  reviewComment: ['admin', 'event_logger', 'power_logger'],
  /** Seeing and logging from admin-only (system) templates; only admins change them. */
  adminOnlyTemplates: ['admin', 'power_logger'],
} satisfies Record<string, Role[]>;

/** True when the user holds at least one of the roles. */
export function hasAnyRole(userRoles: readonly string[], allowed: readonly Role[]): boolean {
  return allowed.some((r) => userRoles.includes(r));
}

/** Whether a user may attach pictures to an event, or remove them: its author, admins and event managers. */
export function mayAttachToEvent(
  user: { roles: readonly string[]; username: string },
  event: { event_author: string },
): boolean {
  return hasAnyRole(user.roles, capabilityRoles.attachToAnyEvent) || event.event_author === user.username;
}

/** Whether a user sees and logs from admin-only templates (admins and Sealog 2.4's power_logger). */
export function mayUseAdminOnlyTemplates(userRoles: readonly string[]): boolean {
  return hasAnyRole(userRoles, capabilityRoles.adminOnlyTemplates);
}

/** The roles a guest-role account may hold and still be offered as a guest: reading ones only. */
const guestAccountRoles: readonly string[] = ['guest', 'event_watcher'];

/**
 * Whether the login page may offer this account as a guest (docs/sealog-clients.md#guest-accounts):
 * enabled, never an admin, and either the seeded `guest` user or a holder of the guest role with
 * no role beyond reading, so a name given the guest role by mistake beside others is not listed.
 */
export function isGuestAccount(user: { username: string; roles: readonly string[]; disabled: boolean }): boolean {
  if (user.disabled || user.roles.includes('admin')) return false;
  if (user.username === 'guest') return true;
  return user.roles.includes('guest') && user.roles.every((r) => guestAccountRoles.includes(r));
}

/**
 * Rights only a device key holds: following this server as a shore does
 * (docs/ship-to-shore.md#access). No user role grants them and they add no scope, so a key
 * reads the change feed, its files, and sends comments only when an admin gave it one of these on
 * purpose. `follower` reads what the key may read under the event-access rule (a key is on no
 * access list, so with access control on: the open records and the events outside restricted
 * ones); `full_follower` reads everything, restricted records included, and nothing more.
 */
export const followRoles = ['follower', 'full_follower'] as const;
export type FollowRole = (typeof followRoles)[number];

/** The roles a device key may hold: every user role, and the follow rights. */
export const deviceKeyRoles = [...roles, ...followRoles] as const;
export type DeviceKeyRole = (typeof deviceKeyRoles)[number];

/** How the Device Keys screen names each follow right. */
export const followRoleLabels: Record<FollowRole, string> = {
  follower: 'Shore follower: copies what a reader may read',
  full_follower: 'Shore follower: copies everything, restricted records too',
};

/**
 * What a device key may follow: nothing, what its reads allow (`readable`: the event-access rule,
 * which an `admin` key passes everywhere), or `everything`.
 */
export function followRightOf(keyRoles: readonly string[]): 'none' | 'readable' | 'everything' {
  if (keyRoles.includes('full_follower')) return 'everything';
  return keyRoles.includes('follower') ? 'readable' : 'none';
}

/** Usernames that can never be deleted (docs/roles-and-access.md#protected-users). */
export const protectedUsernames = ['admin', 'guest', 'pi'] as const;

export function isProtectedUsername(username: string): boolean {
  return (protectedUsernames as readonly string[]).includes(username);
}
