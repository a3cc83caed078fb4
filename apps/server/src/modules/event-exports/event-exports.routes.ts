import { z } from 'zod/mini';
import { eventExportQuerySchema, eventGetQuerySchema, exportedEventSchema, idParamsSchema } from '@bathylog/shared';
import { jsonOrCsv } from '../../plugins/response-schemas.js';
import type { AppContext } from '../../context.js';
import { caller } from '../../plugins/auth.js';
import { eventAccess } from '../access/event-access.js';
import type { ApiInstance } from '../../plugins/types.js';
import { sendOutput } from '../events/event-output.js';
import { EventExportsService } from './event-exports.service.js';
import { requestVideoLinks } from '../../media/video-links.js';

/** Event export routes (docs/wire.md#event-exports). */
export function eventExportsRoutes(app: ApiInstance, ctx: AppContext): void {
  const service = new EventExportsService(ctx);
  // Reads admit the anonymous archive visitor while the public archive is on (docs/public-archive.md).
  // Each row carries its recording and offset per camera (`video`, docs/video.md#exports).
  const read = { auth: true, scopes: ['admin', 'read_events'], access: 'events', archive: true, video: true } as const;
  const tags = ['event_exports'];

  app.get(
    '/event_exports',
    {
      config: read,
      schema: {
        querystring: eventExportQuerySchema,
        tags,
        response: { 200: jsonOrCsv(z.array(exportedEventSchema), 'the events with their aux data') },
      },
    },
    async (req, reply) =>
      sendOutput(
        reply,
        await service.list(caller(req), req.query, { kind: 'all' }, eventAccess(req), requestVideoLinks(req)),
      ),
  );

  for (const kind of ['cruise', 'lowering'] as const) {
    app.get(
      `/event_exports/by${kind}/:id`,
      {
        config: read,
        schema: {
          params: idParamsSchema,
          querystring: eventExportQuerySchema,
          tags,
          response: { 200: jsonOrCsv(z.array(exportedEventSchema), 'the events with their aux data') },
        },
      },
      async (req, reply) =>
        sendOutput(
          reply,
          await service.list(
            caller(req),
            req.query,
            { kind, id: req.params.id },
            eventAccess(req),
            requestVideoLinks(req),
          ),
        ),
    );
  }

  app.get(
    '/event_exports/:id',
    {
      config: read,
      schema: {
        params: idParamsSchema,
        querystring: eventGetQuerySchema,
        tags,
        response: { 200: jsonOrCsv(exportedEventSchema, 'the event with its aux data') },
      },
    },
    async (req, reply) =>
      sendOutput(reply, await service.get(req.params.id, req.query, eventAccess(req), requestVideoLinks(req))),
  );
}
