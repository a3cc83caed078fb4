import { z } from 'zod/mini';
import { customVarSchema, idParamsSchema, queryListSchema, updateCustomVarSchema } from '@bathylog/shared';
import { noContent } from '../../plugins/response-schemas.js';
import type { AppContext } from '../../context.js';
import { caller } from '../../plugins/auth.js';
import type { ApiInstance } from '../../plugins/types.js';
import { CustomVarsService } from './custom-vars.service.js';

/** `name` may repeat: `?name=asnapStatus&name=freeSpaceInBytes` (exact names, any of them). */
const listQuery = z.strictObject({ name: z.optional(queryListSchema) });

/** Custom vars (docs/wire.md#custom-vars): list, get, update. */
export function customVarsRoutes(app: ApiInstance, ctx: AppContext): void {
  const service = new CustomVarsService(ctx);
  const read = { auth: true, scopes: ['admin', 'read_events'] } as const;
  const write = { auth: true, scopes: ['admin', 'write_events'], origin: 'none' } as const;
  const tags = ['custom_vars'];

  app.get(
    '/custom_vars',
    { config: read, schema: { querystring: listQuery, tags, response: { 200: z.array(customVarSchema) } } },
    (req) => service.list(req.query.name),
  );

  app.get(
    '/custom_vars/:id',
    { config: read, schema: { params: idParamsSchema, tags, response: { 200: customVarSchema } } },
    (req) => service.get(req.params.id),
  );

  app.patch(
    '/custom_vars/:id',
    {
      config: write,
      schema: { params: idParamsSchema, body: updateCustomVarSchema, tags, response: { 204: noContent } },
    },
    async (req, reply) => {
      await service.update(caller(req), req.params.id, req.body);
      return reply.code(204).send();
    },
  );
}
