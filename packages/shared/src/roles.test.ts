import { describe, expect, it } from 'vitest';
import {
  capabilityRoles,
  followRightOf,
  hasAnyRole,
  hasAnyScope,
  isGuestAccount,
  isProtectedUsername,
  mayUseAdminOnlyTemplates,
  roleLabel,
  scopesForRoles,
} from './roles.js';

describe('scopesForRoles', () => {
  it('gives admin only the admin scope, whatever else it holds', () => {
    expect(scopesForRoles(['admin'])).toEqual(['admin']);
    expect(scopesForRoles(['event_watcher', 'admin', 'cruise_manager'])).toEqual(['admin']);
  });

  it('gives each role its scopes in the documented order', () => {
    expect(scopesForRoles(['event_watcher'])).toEqual(['read_events', 'read_cruises', 'read_lowerings']);
    const logger = ['read_events', 'write_events', 'read_event_templates', 'read_cruises', 'read_lowerings'];
    expect(scopesForRoles(['event_logger'])).toEqual(logger);
    expect(scopesForRoles(['event_manager'])).toEqual(logger);
    // Sealog 2.4's power_logger: the event_logger's scopes (was stored but granted nothing).
    expect(scopesForRoles(['power_logger'])).toEqual(logger);
    // The WHOI client's guest accounts read as watchers do.
    expect(scopesForRoles(['guest'])).toEqual(['read_events', 'read_cruises', 'read_lowerings']);
    expect(scopesForRoles(['template_manager'])).toEqual([
      'read_events',
      'write_events',
      'read_event_templates',
      'write_event_templates',
      'read_cruises',
      'read_lowerings',
    ]);
    expect(scopesForRoles(['cruise_manager'])).toEqual([
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
    ]);
  });

  it('concatenates roles in the user order, keeping the first occurrence of each scope', () => {
    // The default guest: event_manager, event_logger, event_watcher.
    expect(scopesForRoles(['event_manager', 'event_logger', 'event_watcher'])).toEqual([
      'read_events',
      'write_events',
      'read_event_templates',
      'read_cruises',
      'read_lowerings',
    ]);
    expect(scopesForRoles(['event_watcher', 'template_manager'])).toEqual([
      'read_events',
      'read_cruises',
      'read_lowerings',
      'write_events',
      'read_event_templates',
      'write_event_templates',
    ]);
  });

  it('grants nothing for unknown roles or none, and never create_cruises/create_lowerings', () => {
    expect(scopesForRoles([])).toEqual([]);
    expect(scopesForRoles(['captain', 'toString', '__proto__'])).toEqual([]);
    expect(scopesForRoles(['captain', 'event_watcher'])).toEqual(['read_events', 'read_cruises', 'read_lowerings']);
    const all = scopesForRoles([
      'cruise_manager',
      'event_manager',
      'template_manager',
      'event_logger',
      'event_watcher',
    ]);
    expect(all).not.toContain('create_cruises');
    expect(all).not.toContain('create_lowerings');
    expect(all).not.toContain('admin');
  });
});

describe('hasAnyScope', () => {
  it('is satisfied by any one of the required scopes', () => {
    expect(hasAnyScope(['read_events'], ['admin', 'read_events'])).toBe(true);
    expect(hasAnyScope(['admin'], ['admin', 'read_users'])).toBe(true);
    expect(hasAnyScope(['read_events', 'write_events'], ['admin', 'write_users'])).toBe(false);
    expect(hasAnyScope([], ['read_events'])).toBe(false);
  });
});

describe('isProtectedUsername', () => {
  it('protects admin, guest and pi only', () => {
    for (const name of ['admin', 'guest', 'pi']) expect(isProtectedUsername(name)).toBe(true);
    for (const name of ['Admin', 'science', 'pi2', '']) expect(isProtectedUsername(name)).toBe(false);
  });
});

describe('capability roles', () => {
  it('matches the capability table of docs/roles-and-access.md', () => {
    expect(hasAnyRole(['event_manager'], capabilityRoles.deleteAnyEvent)).toBe(true);
    expect(hasAnyRole(['event_logger', 'event_watcher'], capabilityRoles.deleteAnyEvent)).toBe(false);
    expect(hasAnyRole(['template_manager'], capabilityRoles.systemManagement)).toBe(true);
    expect(hasAnyRole(['template_manager'], capabilityRoles.eventManagement)).toBe(false);
    expect(hasAnyRole(['event_watcher'], capabilityRoles.eventHistory)).toBe(true);
    expect(hasAnyRole(['event_watcher'], capabilityRoles.eventLogging)).toBe(false);
    expect(hasAnyRole(['cruise_manager'], capabilityRoles.adminOnly)).toBe(false);
  });

  it('lets admins and power_loggers (only) use admin-only templates', () => {
    expect(mayUseAdminOnlyTemplates(['admin'])).toBe(true);
    expect(mayUseAdminOnlyTemplates(['power_logger'])).toBe(true);
    for (const role of [
      'event_logger',
      'event_manager',
      'cruise_manager',
      'template_manager',
      'event_watcher',
      'guest',
    ])
      expect(mayUseAdminOnlyTemplates([role]), role).toBe(false);
    expect(hasAnyRole(['power_logger'], capabilityRoles.eventLogging)).toBe(true);
  });

  it('offers enabled guest-role users and the seeded guest as guest accounts', () => {
    expect(isGuestAccount({ username: 'guest', roles: ['event_watcher'], disabled: false })).toBe(true);
    expect(isGuestAccount({ username: 'visitor', roles: ['guest'], disabled: false })).toBe(true);
    expect(isGuestAccount({ username: 'visitor', roles: ['guest'], disabled: true })).toBe(false);
    expect(isGuestAccount({ username: 'pi', roles: ['event_watcher'], disabled: false })).toBe(false);
    expect(isGuestAccount({ username: 'v2', roles: ['guest', 'event_watcher'], disabled: false })).toBe(true);
    // Never an account that can do more than read.
    expect(isGuestAccount({ username: 'boss', roles: ['guest', 'admin'], disabled: false })).toBe(false);
    expect(isGuestAccount({ username: 'v3', roles: ['guest', 'event_logger'], disabled: false })).toBe(false);
    expect(isGuestAccount({ username: 'guest', roles: ['admin'], disabled: false })).toBe(false);
  });
});

describe('the follow right', () => {
  it('is only given on purpose: no user role, admin included, implies it, and it grants no scope', () => {
    expect(followRightOf(['admin', 'event_watcher', 'event_logger', 'cruise_manager'])).toBe('none');
    expect(followRightOf(['follower'])).toBe('readable');
    expect(followRightOf(['follower', 'full_follower'])).toBe('everything');
    expect(followRightOf(['full_follower'])).toBe('everything');
    expect(scopesForRoles(['follower', 'full_follower'])).toEqual([]);
  });
});

describe('roleLabel', () => {
  it('reads as users know it, with the configured word for a cruise', () => {
    expect(roleLabel('admin')).toBe('Admin');
    expect(roleLabel('cruise_manager')).toBe('Cruise Manager');
    expect(roleLabel('cruise_manager', 'Expedition')).toBe('Expedition Manager');
    expect(roleLabel('event_logger')).toBe('Event Logger');
    expect(roleLabel('power_logger')).toBe('Power Logger');
  });

  it('gives a role without its own words a label, never the raw id', () => {
    expect(roleLabel('shore_follower')).toBe('Shore Follower');
  });
});
