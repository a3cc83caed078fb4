import { z } from 'zod';
import { usernameSchema } from '../rules/auth-forms.js';

const reCaptcha = z.string().nullable().optional();

export const passwordLoginSchema = z.strictObject({
  username: z.string().min(1).max(50),
  password: z.string().max(50),
  reCaptcha,
});

export const tokenLoginSchema = z.strictObject({
  loginToken: z.string().length(20),
  reCaptcha,
});

export const loginSchema = z.union([passwordLoginSchema, tokenLoginSchema]);
export type Login = z.infer<typeof loginSchema>;

export const loginResponseSchema = z.object({ token: z.string(), id: z.string() });
export type LoginResponse = z.infer<typeof loginResponseSchema>;

export const registerSchema = z.strictObject({
  username: usernameSchema,
  fullname: z.string().min(1).max(50),
  email: z.string().min(1).max(50),
  password: z.string().max(50),
  reCaptcha,
});
export type Register = z.infer<typeof registerSchema>;

export const forgotPasswordSchema = z.strictObject({
  resetURL: z.url(),
  email: z.string().min(1).max(50),
  reCaptcha,
});
export type ForgotPassword = z.infer<typeof forgotPasswordSchema>;

export const resetPasswordSchema = z.strictObject({
  token: z.string().min(1),
  password: z.string().max(50),
  reCaptcha,
});
export type ResetPassword = z.infer<typeof resetPasswordSchema>;

/** PATCH auth/profile: the owner's own editable fields. */
export const updateProfileSchema = z
  .strictObject({
    username: usernameSchema.optional(),
    fullname: z.string().min(1).max(100).optional(),
    password: z.string().max(50).optional(),
  })
  .refine((v) => Object.keys(v).length > 0, { message: 'must have at least 1 key' });
export type UpdateProfile = z.infer<typeof updateProfileSchema>;
