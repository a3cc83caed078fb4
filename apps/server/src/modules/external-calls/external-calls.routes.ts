import { idParamsSchema, messageSchema } from '@bathylog/shared';
import type { AppContext } from '../../context.js';
import type { ApiInstance } from '../../plugins/types.js';
import { commandStartedMessage, ExternalCallsService } from './external-calls.service.js';

/** GET /external_calls/export_cruise/{id} and export_lowering/{id} (docs/wire.md#external-calls): admin only, 202. */
export function externalCallsRoutes(app: ApiInstance, ctx: AppContext): void {
  const service = new ExternalCallsService(ctx);
  const admin = { auth: true, scopes: ['admin'] } as const;
  const schema = { params: idParamsSchema, tags: ['external_calls'], response: { 202: messageSchema } };
  app.addHook('onClose', async () => service.stop());

  app.get('/external_calls/export_cruise/:id', { config: admin, schema }, async (req, reply) => {
    await service.exportRecord('cruise', req.params.id);
    return reply.code(202).send({ message: commandStartedMessage });
  });

  app.get('/external_calls/export_lowering/:id', { config: admin, schema }, async (req, reply) => {
    await service.exportRecord('lowering', req.params.id);
    return reply.code(202).send({ message: commandStartedMessage });
  });
}
