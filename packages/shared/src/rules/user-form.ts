import { z } from 'zod/mini';
import { roles as allRoles, type Role } from '../roles.js';
import type { CreateUser, UpdateUser, User } from '../schemas/users.js';

/** The user administration form's messages, word for word as the Sealog client shows them. */
export const userFormMessages = {
  required: 'Required',
  usernameTooLong: 'Must be 15 characters or less',
  usernameLowercase: 'Username must be all lowercase',
  usernameWhitespace: 'Username can not include whitespace',
  invalidEmail: 'Invalid email address',
  passwordsMustMatch: 'Passwords must match',
  rolesRequired: 'Must select at least one role',
} as const;

/** The Sealog client's username limit. */
export const userFormUsernameMaxLength = 15;
/** Length of the password an imported user gets when the file has none (as the Sealog
 * client's import made them). */
export const importPasswordLength = 12;

const m = userFormMessages;
/** A simple address pattern: something@something.tld, no spaces. */
const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** What the add/edit form holds. `confirmPassword` is never sent. */
export interface UserFormValues {
  username: string;
  fullname: string;
  email: string;
  password: string;
  confirmPassword: string;
  roles: string[];
  system_user: boolean;
  disabled: boolean;
}

/**
 * The form's rules as one zod schema (the client's form hook, apps/web/src/lib/form.ts, puts each message under
 * its field). Every rule runs on every submit, so the user sees all problems at once.
 */
export const userFormSchema = z
  .object({
    username: z.string(),
    fullname: z.string(),
    email: z.string(),
    password: z.string(),
    confirmPassword: z.string(),
    roles: z.array(z.string()),
    system_user: z.boolean(),
    disabled: z.boolean(),
  })
  .check(
    z.superRefine((form, ctx) => {
      const fail = (path: keyof UserFormValues, message: string) =>
        ctx.addIssue({ code: 'custom', path: [path], message });
      if (form.username === '') fail('username', m.required);
      else if (form.username.length > userFormUsernameMaxLength) fail('username', m.usernameTooLong);
      else if (form.username !== form.username.toLowerCase()) fail('username', m.usernameLowercase);
      else if (/\s/.test(form.username)) fail('username', m.usernameWhitespace);

      if (form.fullname.trim() === '') fail('fullname', m.required);

      if (form.email.trim() === '') fail('email', m.required);
      else if (!emailPattern.test(form.email.trim())) fail('email', m.invalidEmail);

      // The password itself is optional (an empty one on update leaves it unchanged).
      if (form.password !== form.confirmPassword) fail('confirmPassword', m.passwordsMustMatch);

      if (form.roles.length === 0) fail('roles', m.rolesRequired);
    }),
  );

/** A blank form: create mode. system_user and disabled default to false. */
export function emptyUserForm(): UserFormValues {
  return {
    username: '',
    fullname: '',
    email: '',
    password: '',
    confirmPassword: '',
    roles: [],
    system_user: false,
    disabled: false,
  };
}

/** Form values for editing a stored user (the password fields start empty). */
export function userToForm(
  user: Pick<User, 'username' | 'fullname' | 'email' | 'roles' | 'system_user' | 'disabled'>,
): UserFormValues {
  return {
    username: user.username,
    fullname: user.fullname,
    email: user.email,
    password: '',
    confirmPassword: '',
    roles: [...user.roles],
    system_user: user.system_user,
    disabled: user.disabled,
  };
}

/** True when nothing has been typed or chosen (Create User is disabled then). */
export function isBlankUserForm(form: UserFormValues): boolean {
  const blank = emptyUserForm();
  return (
    form.username === blank.username &&
    form.fullname === blank.fullname &&
    form.email === blank.email &&
    form.password === blank.password &&
    form.confirmPassword === blank.confirmPassword &&
    form.roles.length === 0 &&
    form.system_user === blank.system_user &&
    form.disabled === blank.disabled
  );
}

/**
 * Roles a viewer may grant (docs/roles-and-access.md#user-administration): an admin any role, a
 * cruise manager only non-admin roles, anyone else none.
 */
export function assignableRoles(viewerRoles: readonly string[]): Role[] {
  if (viewerRoles.includes('admin')) return [...allRoles];
  if (viewerRoles.includes('cruise_manager')) return allRoles.filter((r) => r !== 'admin');
  return [];
}

/** The viewer's powers over the form (docs/roles-and-access.md#user-administration). */
export interface UserFormViewer {
  isAdmin: boolean;
  /** True when the form edits the viewer's own account. */
  isSelf: boolean;
}

/** The POST /users body for a new user (docs/wire.md#users): confirmPassword never sent. */
export function userCreateBody(
  form: UserFormValues,
  viewer: Pick<UserFormViewer, 'isAdmin'>,
  resetURL: string,
): CreateUser {
  return {
    username: form.username,
    fullname: form.fullname.trim(),
    email: form.email.trim(),
    password: form.password,
    roles: [...form.roles],
    // Only admins set these flags; for everyone else they stay false (the server refuses true).
    system_user: viewer.isAdmin ? form.system_user : false,
    ...(viewer.isAdmin && form.disabled ? { disabled: true } : {}),
    resetURL,
  };
}

/**
 * The PATCH /users/{id} body (docs/wire.md#users): the email (read-only) and last_login are not sent,
 * the id is in the path; an empty password leaves the password unchanged. system_user and
 * disabled are admin-only fields, and nobody disables their own account.
 */
export function userUpdateBody(form: UserFormValues, viewer: UserFormViewer): UpdateUser {
  return {
    username: form.username,
    fullname: form.fullname.trim(),
    ...(form.password !== '' ? { password: form.password } : {}),
    roles: [...form.roles],
    ...(viewer.isAdmin ? { system_user: form.system_user } : {}),
    ...(viewer.isAdmin && !viewer.isSelf ? { disabled: form.disabled } : {}),
  };
}

/** Case-insensitive match of a search text on username, full name and email. */
export function matchesUserSearch(user: Pick<User, 'username' | 'fullname' | 'email'>, search: string): boolean {
  const needle = search.trim().toLowerCase();
  if (needle === '') return true;
  return [user.username, user.fullname, user.email].some((v) => v.toLowerCase().includes(needle));
}

const passwordAlphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A random password (letters and digits) from the platform's cryptographic generator. */
export function randomPassword(length = importPasswordLength): string {
  const out: string[] = [];
  const bytes = new Uint8Array(1);
  // Rejection sampling keeps every character equally likely (256 is not a multiple of 62).
  const limit = 256 - (256 % passwordAlphabet.length);
  while (out.length < length) {
    globalThis.crypto.getRandomValues(bytes);
    const b = bytes[0]!;
    if (b < limit) out.push(passwordAlphabet[b % passwordAlphabet.length]!);
  }
  return out.join('');
}

/**
 * The POST /users body for one record of an import file: the fields a user export
 * holds, a random 12-character password where the record has none.
 */
export function userImportBody(record: Record<string, unknown>, resetURL: string): Record<string, unknown> {
  const pick = (key: string) => (record[key] !== undefined ? { [key]: record[key] } : {});
  const password = typeof record.password === 'string' && record.password !== '' ? record.password : randomPassword();
  return {
    ...pick('id'),
    ...pick('username'),
    ...pick('fullname'),
    ...pick('email'),
    password,
    ...pick('roles'),
    system_user: record.system_user ?? false,
    ...(record.disabled !== undefined ? { disabled: record.disabled } : {}),
    resetURL,
  };
}
