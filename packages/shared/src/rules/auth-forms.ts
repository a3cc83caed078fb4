import { z } from 'zod/mini';
import { authFormMessages } from './auth-messages.js';

export { authFormMessages } from './auth-messages.js';

/** The Sealog client's limits, which existing accounts were made under. */
export const usernameMaxLength = 15;
export const passwordMinLength = 8;
/** The longest password a request may carry (Sealog's limit). */
export const passwordMaxLength = 50;

const m = authFormMessages;
const noWhitespace = /^\S*$/;
/** A simple address pattern: something@something.tld, no spaces. */
export const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const required = () => z.string().check(z.minLength(1, m.required));
const hasNoUppercase = (v: string) => v === v.toLowerCase();

/** The username rules of the Sealog client (at most 15 characters, no whitespace, no uppercase). */
function usernameRules(
  base: z.ZodMiniString<string>,
  text: { tooLong?: string; whitespace: string; uppercase: string },
): z.ZodMiniType<string, string> {
  return base.check(
    z.maxLength(usernameMaxLength, text.tooLong),
    z.regex(noWhitespace, text.whitespace),
    z.refine(hasNoUppercase, text.uppercase),
  );
}

const username = () =>
  usernameRules(required(), {
    tooLong: m.usernameTooLong,
    whitespace: m.usernameWhitespace,
    uppercase: m.usernameUppercase,
  });

/**
 * The same username rules for request bodies: the server applies them on every route that takes a
 * username (register, user create / update, profile, import), so no one can create a user the
 * client could never log in as. Messages read after the field label (`"username" can not …`).
 */
export const usernameSchema = usernameRules(z.string().check(z.minLength(1)), {
  whitespace: 'can not include whitespace',
  uppercase: 'can NOT include uppercase letters',
});

/**
 * The rules of a new password chosen at registration or reset: at least 8 characters, no
 * whitespace. The client form and the server's request bodies apply the same rules.
 */
function newPasswordRules(
  base: z.ZodMiniString<string>,
  text: { tooShort?: string; whitespace: string },
): z.ZodMiniString<string> {
  return base.check(z.minLength(passwordMinLength, text.tooShort), z.regex(noWhitespace, text.whitespace));
}

/** An email address as registration takes it: the client form's pattern. */
function emailRules(base: z.ZodMiniString<string>, invalid: string): z.ZodMiniString<string> {
  return base.check(z.regex(emailPattern, invalid));
}

const email = () => emailRules(required(), m.invalidEmail);

const newPassword = () =>
  newPasswordRules(required(), { tooShort: m.passwordTooShort, whitespace: m.passwordWhitespace });

/** The profile's password: blank keeps the old one; anything else follows the new-password rules. */
const blankOrNewPassword = () =>
  z.string().check(
    z.refine((v) => v === '' || v.length >= passwordMinLength, m.passwordTooShort),
    z.regex(noWhitespace, m.passwordWhitespace),
  );

/**
 * The new-password rules for request bodies (register, reset password, a profile's new password);
 * messages read after the field label.
 */
export const newPasswordSchema = newPasswordRules(z.string().check(z.minLength(1), z.maxLength(passwordMaxLength)), {
  whitespace: 'can not include whitespace',
});

/** The email rules for request bodies (register). */
export const emailSchema = emailRules(z.string().check(z.minLength(1), z.maxLength(50)), 'must be a valid email');

/**
 * "Passwords must match" on confirmPassword. It runs even while other fields are invalid, so the
 * user sees every problem at once (zod skips object refinements on dirty data by default).
 */
function passwordsMatch<S extends z.ZodMiniType<{ password: string; confirmPassword: string }>>(schema: S): S {
  return schema.check(
    z.refine((v: { password: string; confirmPassword: string }) => v.password === v.confirmPassword, {
      message: m.passwordsMustMatch,
      path: ['confirmPassword'],
      when: (payload) => {
        const v = payload.value as Partial<Record<'password' | 'confirmPassword', unknown>> | null;
        return (
          typeof v === 'object' && v !== null && typeof v.password === 'string' && typeof v.confirmPassword === 'string'
        );
      },
    }),
  );
}

/** Registration: the five rules of the Sealog client, with its messages. */
export const registerFormSchema = passwordsMatch(
  z.object({
    username: username(),
    fullname: required(),
    email: email(),
    password: newPassword(),
    confirmPassword: z.string(),
  }),
);
export type RegisterForm = z.infer<typeof registerFormSchema>;

/**
 * Own profile: username optional (blank = unchanged) but at most 15 characters, no whitespace,
 * no uppercase; full name and email Required; password optional (blank = unchanged), else under
 * the registration and reset rules, and equal to its confirmation.
 */
export const profileFormSchema = passwordsMatch(
  z.object({
    username: usernameRules(z.string(), {
      tooLong: m.usernameTooLong,
      whitespace: m.usernameWhitespace,
      uppercase: m.usernameUppercase,
    }),
    fullname: required(),
    email: required(),
    password: blankOrNewPassword(),
    confirmPassword: z.string(),
  }),
);
export type ProfileForm = z.infer<typeof profileFormSchema>;

/** Forgot password: email Required. */
export const forgotPasswordFormSchema = z.object({ email: required() });
export type ForgotPasswordForm = z.infer<typeof forgotPasswordFormSchema>;

/** Reset password: the registration password rules, and the confirmation must match. */
export const resetPasswordFormSchema = passwordsMatch(
  z.object({
    password: newPassword(),
    confirmPassword: z.string(),
  }),
);
export type ResetPasswordForm = z.infer<typeof resetPasswordFormSchema>;

/** The PATCH auth/profile body: only non-empty username, fullname and password are sent, as the
 * Sealog client does. */
export function profileUpdateBody(form: ProfileForm): { username?: string; fullname?: string; password?: string } {
  const body: { username?: string; fullname?: string; password?: string } = {};
  if (form.username.trim()) body.username = form.username.trim();
  if (form.fullname.trim()) body.fullname = form.fullname.trim();
  if (form.password) body.password = form.password;
  return body;
}
