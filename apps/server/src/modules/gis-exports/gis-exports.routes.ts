import { gisExportFileName, gisExportQuerySchema, idParamsSchema } from '@bathylog/shared';
import { fileResponse } from '../../plugins/response-schemas.js';
import type { AppContext } from '../../context.js';
import { caller } from '../../plugins/auth.js';
import { eventAccess } from '../access/event-access.js';
import type { ApiInstance } from '../../plugins/types.js';
import { GisExportsService } from './gis-exports.service.js';
import { requestVideoLinks } from '../../media/video-links.js';

/**
 * GIS exports (Bathylog addition, no Sealog counterpart): the track(s) and events of a lowering or
 * a cruise as GeoJSON (RFC 7946) or KML 2.2, streamed. Same scopes and record access as the
 * event exports of that record; the event filter of the exports applies to the events.
 */
export function gisExportsRoutes(app: ApiInstance, ctx: AppContext): void {
  const service = new GisExportsService(ctx);
  // Reads admit the anonymous archive visitor while the public archive is on (docs/public-archive.md).
  // Each event carries its recording and offset per camera (`video`, docs/video.md#exports).
  const read = { auth: true, scopes: ['admin', 'read_events'], access: 'events', archive: true, video: true } as const;
  const tags = ['gis_exports'];

  for (const kind of ['cruise', 'lowering'] as const) {
    app.get(
      `/gis_exports/by${kind}/:id`,
      {
        config: read,
        schema: {
          params: idParamsSchema,
          querystring: gisExportQuerySchema,
          tags,
          response: {
            200: fileResponse(['application/geo+json', 'application/vnd.google-earth.kml+xml'], 'GeoJSON or KML'),
          },
          summary: `Track${kind === 'cruise' ? 's (one per lowering)' : ''} and events of a ${kind} as GeoJSON or KML`,
          description:
            `GeoJSON (format=geojson, the default): a FeatureCollection with a LineString per lowering track ` +
            `and a Point per event (null geometry when the event has no position), WGS84 lon/lat. ` +
            `KML (format=kml): a LineString Placemark per track and a Placemark per event. Event properties: ` +
            `id, ts, event_value, event_author, event_free_text, event_option.<name>, <data_source>.<data_name>_value/_uom. ` +
            `The track comes from the first configured position source with records; the filter applies to the events only.`,
        },
      },
      async (req, reply) => {
        const out =
          kind === 'cruise'
            ? await service.cruise(caller(req), req.params.id, req.query, eventAccess(req), requestVideoLinks(req))
            : await service.lowering(caller(req), req.params.id, req.query, eventAccess(req), requestVideoLinks(req));
        const name = gisExportFileName(out.name.replace(/[^\w.-]/g, '_'), req.query.format ?? 'geojson');
        return reply
          .type(out.contentType)
          .header('content-disposition', `attachment; filename="${name}"`)
          .send(out.body);
      },
    );
  }
}
