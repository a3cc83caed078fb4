import { describe, expect, it } from 'vitest';
import { createUserSchema, updateUserSchema } from '../schemas/users.js';
import {
  assignableRoles,
  emptyUserForm,
  isBlankUserForm,
  matchesUserSearch,
  randomPassword,
  userCreateBody,
  userFormSchema,
  userImportBody,
  userToForm,
  userUpdateBody,
  type UserFormValues,
} from './user-form.js';

const form = (o: Partial<UserFormValues> = {}): UserFormValues => ({
  ...emptyUserForm(),
  username: 'jdoe',
  fullname: 'Jane Doe',
  email: 'jane@example.org',
  roles: ['event_logger'],
  ...o,
});

/** Field → message, as the client's forms show them. */
function errors(values: UserFormValues): Record<string, string> {
  const result = userFormSchema.safeParse(values);
  if (result.success) return {};
  return Object.fromEntries(result.error.issues.map((i) => [i.path.join('.'), i.message]));
}

describe('user form rules', () => {
  it('accepts a complete form without a password', () => {
    expect(errors(form())).toEqual({});
  });

  it('shows every message of a blank form at once', () => {
    expect(errors(emptyUserForm())).toEqual({
      username: 'Required',
      fullname: 'Required',
      email: 'Required',
      roles: 'Must select at least one role',
    });
  });

  it('limits the username to 15 characters', () => {
    expect(errors(form({ username: 'a'.repeat(15) }))).toEqual({});
    expect(errors(form({ username: 'a'.repeat(16) }))).toEqual({ username: 'Must be 15 characters or less' });
  });

  it('wants the username all lowercase and without whitespace', () => {
    expect(errors(form({ username: 'JDoe' }))).toEqual({ username: 'Username must be all lowercase' });
    expect(errors(form({ username: 'j doe' }))).toEqual({ username: 'Username can not include whitespace' });
    expect(errors(form({ username: 'jdoe\t' }))).toEqual({ username: 'Username can not include whitespace' });
  });

  it('wants an address-like email', () => {
    for (const bad of ['jane', 'jane@', 'jane@example', 'jane doe@example.org', '@example.org']) {
      expect(errors(form({ email: bad })), bad).toEqual({ email: 'Invalid email address' });
    }
    expect(errors(form({ email: 'jane.doe+sea@ship.example.org' }))).toEqual({});
  });

  it('needs a full name', () => {
    expect(errors(form({ fullname: '   ' }))).toEqual({ fullname: 'Required' });
  });

  it('wants the two passwords to match, but no password at all is fine', () => {
    expect(errors(form({ password: 'secret123', confirmPassword: 'secret124' }))).toEqual({
      confirmPassword: 'Passwords must match',
    });
    expect(errors(form({ password: 'secret123', confirmPassword: 'secret123' }))).toEqual({});
    expect(errors(form({ password: '', confirmPassword: 'x' }))).toEqual({ confirmPassword: 'Passwords must match' });
  });

  it('needs at least one role', () => {
    expect(errors(form({ roles: [] }))).toEqual({ roles: 'Must select at least one role' });
  });
});

describe('roles a viewer may grant', () => {
  it('gives admins every role and cruise managers the non-admin ones', () => {
    expect(assignableRoles(['admin'])).toEqual([
      'admin',
      'cruise_manager',
      'event_manager',
      'template_manager',
      'event_logger',
      'power_logger',
      'aux_data_inserter',
      'event_watcher',
      'guest',
    ]);
    expect(assignableRoles(['cruise_manager', 'event_logger'])).toEqual([
      'cruise_manager',
      'event_manager',
      'template_manager',
      'event_logger',
      'power_logger',
      'aux_data_inserter',
      'event_watcher',
      'guest',
    ]);
    expect(assignableRoles(['template_manager'])).toEqual([]);
  });
});

describe('request bodies', () => {
  const resetURL = 'http://ship.example:8000/resetPassword/';

  it('creates with the Sealog payload and no confirmPassword', () => {
    const body = userCreateBody(
      form({ password: 'pw123456', confirmPassword: 'pw123456', system_user: true }),
      { isAdmin: true },
      resetURL,
    );
    expect(body).toEqual({
      username: 'jdoe',
      fullname: 'Jane Doe',
      email: 'jane@example.org',
      password: 'pw123456',
      roles: ['event_logger'],
      system_user: true,
      resetURL,
    });
    expect(createUserSchema.safeParse(body).success).toBe(true);
  });

  it('never lets a non-admin set the admin-only flags', () => {
    const body = userCreateBody(form({ system_user: true, disabled: true }), { isAdmin: false }, resetURL);
    expect(body.system_user).toBe(false);
    expect(body).not.toHaveProperty('disabled');
    const update = userUpdateBody(form({ system_user: true, disabled: true }), { isAdmin: false, isSelf: false });
    expect(update).not.toHaveProperty('system_user');
    expect(update).not.toHaveProperty('disabled');
  });

  it('updates without email and without an empty password', () => {
    const body = userUpdateBody(form({ disabled: true }), { isAdmin: true, isSelf: false });
    expect(body).toEqual({
      username: 'jdoe',
      fullname: 'Jane Doe',
      roles: ['event_logger'],
      system_user: false,
      disabled: true,
    });
    expect(updateUserSchema.safeParse(body).success).toBe(true);
    expect(
      userUpdateBody(form({ password: 'newpass1', confirmPassword: 'newpass1' }), { isAdmin: true, isSelf: false })
        .password,
    ).toBe('newpass1');
  });

  it('does not send the disabled flag for the own account', () => {
    expect(userUpdateBody(form({ disabled: true }), { isAdmin: true, isSelf: true })).not.toHaveProperty('disabled');
  });

  it('round-trips a stored user through the form', () => {
    const values = userToForm({
      username: 'pi',
      fullname: 'Primary Investigator',
      email: 'pi@example.org',
      roles: ['cruise_manager'],
      system_user: true,
      disabled: false,
    });
    expect(values.password).toBe('');
    expect(errors(values)).toEqual({});
    expect(isBlankUserForm(values)).toBe(false);
    expect(isBlankUserForm(emptyUserForm())).toBe(true);
  });
});

describe('user search', () => {
  const user = { username: 'science', fullname: 'Scientist Two', email: 'Sci@Ship.org' };
  it('matches username, full name and email, ignoring case', () => {
    expect(matchesUserSearch(user, 'SCIEN')).toBe(true);
    expect(matchesUserSearch(user, 'two')).toBe(true);
    expect(matchesUserSearch(user, 'sci@ship')).toBe(true);
    expect(matchesUserSearch(user, '  ')).toBe(true);
    expect(matchesUserSearch(user, 'pilot')).toBe(false);
  });
});

describe('user import', () => {
  it('makes a random 12-character password from letters and digits', () => {
    const a = randomPassword();
    expect(a).toMatch(/^[A-Za-z0-9]{12}$/);
    expect(randomPassword()).not.toBe(a);
  });

  it('fills in a missing password and keeps a given one', () => {
    const record = {
      id: '5981f167212b348aed7fc9f6',
      username: 'bob',
      fullname: 'Bob',
      email: 'bob@example.org',
      roles: ['event_watcher'],
      system_user: false,
      last_login: '2024-01-01T00:00:00.000Z',
    };
    const body = userImportBody(record, 'http://x/resetPassword/');
    expect(body.password).toMatch(/^[A-Za-z0-9]{12}$/);
    expect(body).not.toHaveProperty('last_login');
    expect(createUserSchema.safeParse(body).success).toBe(true);
    expect(userImportBody({ ...record, password: 'kept-it' }, 'http://x/resetPassword/').password).toBe('kept-it');
    expect(userImportBody({ ...record, password: '' }, 'http://x/resetPassword/').password).toMatch(
      /^[A-Za-z0-9]{12}$/,
    );
  });
});
