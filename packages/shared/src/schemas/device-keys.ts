import { z } from 'zod/mini';
import { deviceKeyRoles } from '../roles.js';
import { isoTimestampSchema } from './common.js';

/** Device keys (docs/roles-and-access.md#device-keys): named keys for devices and bots, each with its own roles. */
export const deviceKeyNameMaxLength = 50;

/** POST device_keys: a name, the roles the key grants (a follow right among them), an optional expiry (ISO-8601). */
export const createDeviceKeySchema = z.strictObject({
  name: z.string().check(z.trim(), z.minLength(1), z.maxLength(deviceKeyNameMaxLength)),
  roles: z.array(z.enum(deviceKeyRoles)).check(z.minLength(1)),
  expires: z.optional(z.nullable(isoTimestampSchema)),
});
export type CreateDeviceKey = z.input<typeof createDeviceKeySchema>;

/** A key as the list shows it: never the key itself, only its first characters. */
export const deviceKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  key_prefix: z.string(),
  roles: z.array(z.string()),
  created: z.string(),
  created_by: z.string(),
  expires: z.nullable(z.string()),
  last_used: z.nullable(z.string()),
  last_used_address: z.nullable(z.string()),
  revoked: z.nullable(z.string()),
  revoked_by: z.nullable(z.string()),
});
export type DeviceKey = z.infer<typeof deviceKeySchema>;

/** The answer to a create: the key itself, shown once. */
export const createdDeviceKeySchema = z.extend(deviceKeySchema, { key: z.string() });
export type CreatedDeviceKey = z.infer<typeof createdDeviceKeySchema>;
