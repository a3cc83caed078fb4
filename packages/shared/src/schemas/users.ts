import { z } from 'zod';
import { objectIdSchema } from './common.js';
import { usernameSchema } from '../rules/auth-forms.js';

/** A user as every user route returns it: no password, tokens or reset fields. */
export const userSchema = z.object({
  id: z.string(),
  username: z.string(),
  fullname: z.string(),
  email: z.string(),
  last_login: z.string(),
  roles: z.array(z.string()),
  system_user: z.boolean(),
  disabled: z.boolean(),
});
export type User = z.infer<typeof userSchema>;

const rolesField = z.array(z.string().min(1)).min(1);

export const createUserSchema = z.strictObject({
  id: objectIdSchema.optional(),
  username: usernameSchema,
  fullname: z.string().min(1).max(100),
  email: z.email(),
  password: z.string().max(50),
  roles: rolesField,
  system_user: z.boolean().optional(),
  disabled: z.boolean().optional(),
  /** Sealog requires it; we accept its absence (imports carry no reset URL). */
  resetURL: z.url().optional(),
});
export type CreateUser = z.infer<typeof createUserSchema>;

export const updateUserSchema = z
  .strictObject({
    username: usernameSchema.optional(),
    fullname: z.string().min(1).max(100).optional(),
    password: z.string().max(50).optional(),
    roles: rolesField.optional(),
    system_user: z.boolean().optional(),
    disabled: z.boolean().optional(),
  })
  .refine((v) => Object.keys(v).length > 0, { message: 'must have at least 1 key' });
export type UpdateUser = z.infer<typeof updateUserSchema>;

export const userSortValues = ['username', 'last_login'] as const;
