import { z } from 'zod/mini';

/** A custom var as the API returns it; the value is always a string (docs/wire.md#custom-vars). */
export const customVarSchema = z.object({
  id: z.string(),
  custom_var_name: z.string(),
  custom_var_value: z.string(),
});
export type CustomVar = z.infer<typeof customVarSchema>;

/** The vars the server seeds and the footer shows (docs/wire.md#seeded-records). */
export const customVarNames = {
  asnapStatus: 'asnapStatus',
  freeSpaceInBytes: 'freeSpaceInBytes',
  freeSpacePercentage: 'freeSpacePercentage',
} as const;

/** asnapStatus takes only these two values. */
export const asnapStatusValues = ['On', 'Off'] as const;
export type AsnapStatus = (typeof asnapStatusValues)[number];

/**
 * Vars only the server writes (its free-space monitor, docs/wire.md#free-space-monitor). A client write would be
 * overwritten within a minute and would show a false reading until then, so the API refuses it.
 */
export const serverOwnedCustomVars: readonly string[] = [
  customVarNames.freeSpaceInBytes,
  customVarNames.freeSpacePercentage,
];

/**
 * PATCH /custom_vars/{id}. The web client sends the name along with the value; the name may be
 * repeated but not changed (the server checks it against the stored one).
 */
export const updateCustomVarSchema = z
  .strictObject({
    custom_var_name: z.optional(z.string().check(z.minLength(1))),
    custom_var_value: z.optional(z.string()),
  })
  .check(z.refine((v) => Object.keys(v).length > 0, { message: 'must have at least 1 key' }));
export type UpdateCustomVar = z.infer<typeof updateCustomVarSchema>;
