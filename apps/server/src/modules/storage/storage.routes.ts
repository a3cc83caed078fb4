import { healthSchema, storageStatusSchema } from '@bathylog/shared';
import type { AppContext } from '../../context.js';
import type { ApiInstance } from '../../plugins/types.js';
import { StorageService } from './storage.service.js';

/**
 * The file store's state for admins, and the server's health for balancers and monitors
 * (docs/storage.md#when-the-bucket-is-down).
 */
export function storageRoutes(app: ApiInstance, ctx: AppContext): void {
  const service = new StorageService(ctx);
  const tags = ['storage'];
  app.get(
    '/storage/status',
    { config: { auth: true, scopes: ['admin'] }, schema: { tags, response: { 200: storageStatusSchema } } },
    () => service.status(),
  );
  // No token: a balancer asks. It names no record, address or setting, only what works.
  app.get('/health', { schema: { tags, response: { 200: healthSchema, 503: healthSchema } } }, async (_req, reply) => {
    const health = await service.health();
    return reply.code(health.database === 'ok' ? 200 : 503).send(health);
  });
}
