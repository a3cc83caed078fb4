import {
  archiveEventListQuerySchema,
  idParamsSchema,
  publicationReportSchema,
  publicationSettingsSchema,
  updatePublicationSettingsSchema,
} from '@bathylog/shared';
import type { AppContext } from '../../context.js';
import { caller } from '../../plugins/auth.js';
import { fileResponse } from '../../plugins/response-schemas.js';
import type { ApiInstance } from '../../plugins/types.js';
import { eventAccess } from '../access/event-access.js';
import { PublicationService } from './publication.service.js';

/**
 * Standard publication (docs/publication.md, a Bathylog addition): a dive's or a cruise's Darwin
 * Core Archive, the validator's report on it, the archives' event lists, and the settings they
 * follow. The exports read like every other export of the record (scopes, access lists, hidden
 * records, the public archive), through the heavy-read queue.
 */
export function publicationRoutes(app: ApiInstance, ctx: AppContext): void {
  const service = new PublicationService(ctx);
  const read = { auth: true, scopes: ['admin', 'read_events'], access: 'events', archive: true } as const;
  const tags = ['publication'];

  for (const kind of ['cruise', 'lowering'] as const) {
    app.get(
      `/publication/dwca/by${kind}/:id`,
      {
        config: read,
        schema: {
          params: idParamsSchema,
          tags,
          summary: `The Darwin Core Archive of a ${kind} (zip)`,
          description:
            'meta.xml, eml.xml, event.txt (Event core), occurrence.txt and extendedmeasurementorfact.txt; ' +
            'the same data gives the same bytes. `X-Dwca-Valid` says whether the validator passed it; ' +
            `its report: GET publication/dwca_report/by${kind}/{id}.`,
          response: { 200: fileResponse(['application/zip'], 'The archive') },
        },
      },
      async (req, reply) => {
        const out = await service.dwca(caller(req), kind, req.params.id, eventAccess(req));
        return reply
          .type('application/zip')
          .header('content-disposition', `attachment; filename="${out.fileName}"`)
          .header('x-dwca-valid', String(out.report.ok))
          .header('x-dwca-sha256', out.report.sha256)
          .send(Buffer.from(out.zip.buffer, out.zip.byteOffset, out.zip.byteLength));
      },
    );

    app.get(
      `/publication/dwca_report/by${kind}/:id`,
      {
        config: read,
        schema: {
          params: idParamsSchema,
          tags,
          summary: `The validator's report on the Darwin Core Archive of a ${kind}`,
          description:
            'Schema checks of meta.xml and eml.xml, the structural checks, and the observations without a taxon. ' +
            '`sha256` is the digest of the archive the zip route answers for the same data.',
          response: { 200: publicationReportSchema },
        },
      },
      async (req) => (await service.dwca(caller(req), kind, req.params.id, eventAccess(req))).report,
    );
  }

  app.get(
    '/publication/event_list/bycruise/:id',
    {
      config: read,
      schema: {
        params: idParamsSchema,
        querystring: archiveEventListQuerySchema,
        tags,
        summary: "A cruise's event list for the national archives",
        description:
          'format=r2r (default): an R2R-style event log as CSV; format=pangaea: a PANGAEA event list, tab-separated. ' +
          'Rows come from the events whose template the settings map to an instrument and action.',
        response: { 200: fileResponse(['text/csv', 'text/tab-separated-values'], 'The event list') },
      },
    },
    async (req, reply) => {
      const out = await service.eventList(caller(req), req.params.id, req.query.format, eventAccess(req));
      return reply
        .type(out.contentType)
        .header('content-disposition', `attachment; filename="${out.fileName}"`)
        .send(out.body);
    },
  );

  app.get(
    '/publication/settings',
    {
      config: { auth: true, scopes: ['admin', 'read_events'] },
      schema: { tags, summary: 'The publication settings', response: { 200: publicationSettingsSchema } },
    },
    () => service.settings(),
  );

  app.put(
    '/publication/settings',
    {
      // The installation's own settings: no record copied from a ship changes.
      config: { auth: true, scopes: ['admin'], origin: 'none' },
      schema: {
        body: updatePublicationSettingsSchema,
        tags,
        summary: 'Replace parts of the publication settings (admins)',
        response: { 200: publicationSettingsSchema },
      },
    },
    (req) => service.updateSettings(caller(req), req.body),
  );
}
