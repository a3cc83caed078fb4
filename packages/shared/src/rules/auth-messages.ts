// Free of zod on purpose: the login screen imports from here
// (docs/lean-client.md#budgets-checked-on-every-npm-test).

/**
 * Client form rules and their exact messages for login, registration, profile, forgot and reset
 * password, word for word as the Sealog client shows them (users and guides know them). Used with
 * the client's form hook (apps/web/src/lib/form.ts) and zod; the first message of a field is the one shown, so each chain is
 * ordered as users expect to read them.
 */
export const authFormMessages = {
  required: 'Required',
  usernameTooLong: 'Username must be 15 characters or less',
  usernameWhitespace: 'Username can not include whitespace',
  usernameUppercase: 'Username can NOT include uppercase letters',
  invalidEmail: 'Invalid email address',
  passwordTooShort: 'Password must be 8 characters or more',
  passwordWhitespace: 'Password can not include whitespace',
  passwordsMustMatch: 'Passwords must match',
} as const;

/**
 * The server's answers to a taken username or email, the same words on every route that needs a
 * caller (user create and update, profile, import) and so on every screen that shows them.
 * Registration, open to anyone, answers `registrationTaken` for both: it does not tell a stranger
 * whether a username or an email address has an account (docs/security.md#password-changes-and-resets).
 */
export const accountTakenMessages = {
  username: 'Username already exists',
  email: 'Email already exists',
  registrationTaken: 'Username or email already in use',
} as const;

const m = authFormMessages;

/**
 * Login: username and password Required (the username is lower-cased when sent). Plain rules
 * rather than a zod schema, so the login screen, the first thing a ship's link loads, carries no
 * validation library (docs/lean-client.md#what-keeps-the-first-load-small).
 */
export const loginFormRules = {
  username: { required: m.required },
  password: { required: m.required },
} as const;
export interface LoginForm {
  username: string;
  password: string;
}
