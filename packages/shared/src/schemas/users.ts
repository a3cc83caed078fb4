import { z } from 'zod/mini';
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

const rolesField = z.array(z.string().check(z.minLength(1))).check(z.minLength(1));

export const createUserSchema = z.strictObject({
  id: z.optional(objectIdSchema),
  username: usernameSchema,
  fullname: z.string().check(z.minLength(1), z.maxLength(100)),
  email: z.email(),
  password: z.string().check(z.maxLength(50)),
  roles: rolesField,
  system_user: z.optional(z.boolean()),
  disabled: z.optional(z.boolean()),
  /** Sealog requires it; we accept its absence (imports carry no reset URL). */
  resetURL: z.optional(z.url()),
});
export type CreateUser = z.infer<typeof createUserSchema>;

export const updateUserSchema = z
  .strictObject({
    username: z.optional(usernameSchema),
    fullname: z.optional(z.string().check(z.minLength(1), z.maxLength(100))),
    password: z.optional(z.string().check(z.maxLength(50))),
    roles: z.optional(rolesField),
    system_user: z.optional(z.boolean()),
    disabled: z.optional(z.boolean()),
  })
  .check(z.refine((v) => Object.keys(v).length > 0, { message: 'must have at least 1 key' }));
export type UpdateUser = z.infer<typeof updateUserSchema>;

export const userSortValues = ['username', 'last_login'] as const;
