import { z } from 'zod/mini';
import { createdDeviceKeySchema, createDeviceKeySchema, deviceKeySchema, idParamsSchema } from '@bathylog/shared';
import { noContent } from '../../plugins/response-schemas.js';
import type { AppContext } from '../../context.js';
import { caller } from '../../plugins/auth.js';
import type { ApiInstance } from '../../plugins/types.js';
import { DeviceKeysService } from './device-keys.service.js';

/** Device keys, admin only (System Management → Device Keys). */
export function deviceKeysRoutes(app: ApiInstance, ctx: AppContext): void {
  const service = new DeviceKeysService(ctx);
  const admin = { auth: true, scopes: ['admin'] } as const;
  const tags = ['device_keys'];

  app.get('/device_keys', { config: admin, schema: { tags, response: { 200: z.array(deviceKeySchema) } } }, () =>
    service.list(),
  );

  app.post(
    '/device_keys',
    {
      config: { ...admin, origin: 'none' },
      schema: { body: createDeviceKeySchema, tags, response: { 201: createdDeviceKeySchema } },
    },
    async (req, reply) => reply.code(201).send(await service.create(caller(req), req.body)),
  );

  // Revokes the key; the record stays listed (who revoked it, when).
  app.delete(
    '/device_keys/:id',
    { config: { ...admin, origin: 'none' }, schema: { params: idParamsSchema, tags, response: { 204: noContent } } },
    async (req, reply) => {
      await service.revoke(caller(req), req.params.id);
      return reply.code(204).send();
    },
  );
}
