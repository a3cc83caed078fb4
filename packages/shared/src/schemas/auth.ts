import { z } from 'zod/mini';
import { emailSchema, newPasswordSchema, usernameSchema } from '../rules/auth-forms.js';

const reCaptcha = z.optional(z.nullable(z.string()));

export const passwordLoginSchema = z.strictObject({
  username: z.string().check(z.minLength(1), z.maxLength(50)),
  password: z.string().check(z.maxLength(50)),
  reCaptcha,
});

export const tokenLoginSchema = z.strictObject({
  loginToken: z.string().check(z.length(20)),
  reCaptcha,
});

/**
 * The Sealog 2.4 clients' "log in by email" shape (docs/sealog-clients.md#login-by-email): the
 * address in its own field. The address may also go where the username goes.
 */
export const emailLoginSchema = z.strictObject({
  email: z.string().check(z.minLength(1), z.maxLength(50)),
  password: z.string().check(z.maxLength(50)),
  reCaptcha,
});

export const loginSchema = z.union([passwordLoginSchema, emailLoginSchema, tokenLoginSchema]);
export type Login = z.infer<typeof loginSchema>;

export const loginResponseSchema = z.object({ token: z.string(), id: z.string() });
export type LoginResponse = z.infer<typeof loginResponseSchema>;

export const registerSchema = z.strictObject({
  username: usernameSchema,
  fullname: z.string().check(z.minLength(1), z.maxLength(50)),
  email: emailSchema,
  password: newPasswordSchema,
  reCaptcha,
});
export type Register = z.infer<typeof registerSchema>;

export const forgotPasswordSchema = z.strictObject({
  resetURL: z.url(),
  email: z.string().check(z.minLength(1), z.maxLength(50)),
  reCaptcha,
});
export type ForgotPassword = z.infer<typeof forgotPasswordSchema>;

export const resetPasswordSchema = z.strictObject({
  token: z.string().check(z.minLength(1)),
  password: newPasswordSchema,
  reCaptcha,
});
export type ResetPassword = z.infer<typeof resetPasswordSchema>;

/** PATCH auth/profile: the owner's own editable fields. */
export const updateProfileSchema = z
  .strictObject({
    username: z.optional(usernameSchema),
    fullname: z.optional(z.string().check(z.minLength(1), z.maxLength(100))),
    password: z.optional(newPasswordSchema),
  })
  .check(z.refine((v) => Object.keys(v).length > 0, { message: 'must have at least 1 key' }));
export type UpdateProfile = z.infer<typeof updateProfileSchema>;

/** GET auth/profile/token and users/{id}/token: a long-lived API token. */
export const apiTokenResponseSchema = z.object({ token: z.string() });

/** GET users/{id}/loginToken: a one-time login token (20 characters). */
export const loginTokenResponseSchema = z.object({ loginToken: z.string() });

/** GET auth/validate. */
export const validateResponseSchema = z.object({ status: z.string() });

/** POST auth/forgotPassword: the same answer whether or not the address is known. */
export const forgotPasswordResponseSchema = z.object({ statusCode: z.number(), message: z.string() });
