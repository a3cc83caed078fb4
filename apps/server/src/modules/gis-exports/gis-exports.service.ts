import { Readable } from 'node:stream';
import {
  buildDiveTrack,
  positionRecordOf,
  trackColumnsOf,
  type DiveTrack,
  readAuxPosition,
  type EventAuxData,
  type GisExportQuery,
  type GisFormat,
  type TrackColumns,
} from '@bathylog/shared';
import type { AppContext } from '../../context.js';
import { AppError } from '../../lib/app-error.js';
import { parseJson } from '../../lib/json.js';
import type { AuthContext } from '../../plugins/auth.js';
import type { EventAccess } from '../access/event-access.js';
import { isListedFor, viewerOf } from '../access/access.rules.js';
import { EventAuxDataRepository } from '../event-aux-data/event-aux-data.repository.js';
import type { EventItem, Output } from '../events/event-output.js';
import { EventQueries } from '../events/event-queries.js';
import type { RecordKind, RecordWindow } from '../events/record-windows.repository.js';
import { RecordWindowsRepository } from '../events/record-windows.repository.js';
import { withVideoAux } from '../../media/video-columns.js';
import type { VideoLinks } from '../../media/video-index.js';
import { gisContentTypes, gisWriters, type GisEvent, type GisTrack } from './gis-formats.js';

const notFound = (kind: RecordKind) => new AppError('NOT_FOUND', `${kind} not found for that id`);

/** A lowering's track, and which of its events have a point on it. */
interface LoweringTrack extends GisTrack {
  window: RecordWindow;
  /** event id → position on the track (events whose record of the track's source has a fix) */
  byEvent: Map<string, { lon: number; lat: number; depth: number | null }>;
}

export interface GisExport extends Output {
  /** The human id of the record, for the file name. */
  name: string;
}

/**
 * GIS exports (Bathylog addition): a lowering's or a cruise's tracks and events as GeoJSON or KML.
 * The track of a lowering follows the one position rule (packages/shared nav.ts) over the
 * configured position sources, independent of the event filter (as the review map draws it); the
 * events follow the filter, each placed by its record of its lowering's track source. Access is
 * the rule for the record's events (401 when the caller may not open it, 404 when missing).
 * Events are streamed in keyset chunks; only the tracks are held in memory.
 */
export class GisExportsService {
  private readonly queries: EventQueries;

  constructor(private readonly ctx: AppContext) {
    this.queries = new EventQueries(ctx);
  }

  private get positionSources(): readonly string[] {
    return this.ctx.config.client.positionDataSources;
  }

  async lowering(
    caller: AuthContext,
    id: string,
    query: GisExportQuery,
    access: EventAccess,
    video?: VideoLinks,
  ): Promise<GisExport> {
    const lowering = await this.queries.record(caller, 'lowering', id, notFound('lowering'));
    const track = await this.trackOf(lowering, access);
    return this.write(query.format ?? 'geojson', lowering, [track], query, access, undefined, video);
  }

  async cruise(
    caller: AuthContext,
    id: string,
    query: GisExportQuery,
    access: EventAccess,
    video?: VideoLinks,
  ): Promise<GisExport> {
    const cruise = await this.queries.record(caller, 'cruise', id, notFound('cruise'));
    const viewer = viewerOf(caller);
    const lowerings = (
      await new RecordWindowsRepository(this.ctx.database.db).loweringsWithin(cruise.start_ts, cruise.stop_ts)
    ).filter((l) =>
      isListedFor(viewer, { ...l, ref: { kind: 'lowering', id: l.id } }, this.ctx.config.useAccessControl),
    );
    const tracks: LoweringTrack[] = [];
    for (const lowering of lowerings) tracks.push(await this.trackOf(lowering, access));
    return this.write(query.format ?? 'geojson', cruise, tracks, query, access, cruise.humanId, video);
  }

  /** GET tracks/bylowering/{id}: the lowering's track as columns (the review map, the milestones editor). */
  async loweringTrack(caller: AuthContext, id: string, access: EventAccess): Promise<TrackColumns> {
    const lowering = await this.queries.record(caller, 'lowering', id, notFound('lowering'));
    const { dive, eventIds } = await this.diveOf(lowering, access);
    return trackColumnsOf(dive, eventIds);
  }

  /**
   * The dive track of a lowering over its whole window (no filter), per the position rule: the
   * first configured source with any record in the window, read in one join.
   */
  private async diveOf(lowering: RecordWindow, access: EventAccess): Promise<{ dive: DiveTrack; eventIds: string[] }> {
    const auxRepo = new EventAuxDataRepository(this.ctx.database.db);
    for (const source of this.positionSources) {
      const rows = await auxRepo.trackRecords(source, { lo: lowering.start_ts, hi: lowering.stop_ts }, access);
      if (rows.length === 0) continue;
      const events = rows.map((r) => ({
        id: r.event_id,
        ts: r.ts,
        aux_data: [{ data_source: source, data_array: parseJson<EventAuxData['data_array']>(r.data_array, []) }],
      }));
      return { dive: buildDiveTrack(events, [source]), eventIds: rows.map((r) => r.event_id) };
    }
    return { dive: { source: null, points: [], depths: [], problems: [] }, eventIds: [] };
  }

  /** The track of one lowering over its whole window (no filter), per the position rule. */
  private async trackOf(lowering: RecordWindow, access: EventAccess): Promise<LoweringTrack> {
    const { dive } = await this.diveOf(lowering, access);
    return {
      window: lowering,
      loweringId: lowering.humanId,
      source: dive.source,
      coordinates: dive.points.map((p) => [p.lon, p.lat]),
      startTs: dive.points[0]?.ts ?? null,
      stopTs: dive.points.at(-1)?.ts ?? null,
      byEvent: new Map(dive.points.map((p) => [p.eventId, { lon: p.lon, lat: p.lat, depth: p.depth }])),
    };
  }

  private async write(
    format: GisFormat,
    record: RecordWindow,
    tracks: LoweringTrack[],
    query: GisExportQuery,
    access: EventAccess,
    cruiseId?: string,
    video?: VideoLinks,
  ): Promise<GisExport> {
    const writer = gisWriters[format];
    const resolved = await this.queries.resolve(query, { lo: record.start_ts, hi: record.stop_ts }, 'exact', access);
    const items = this.queries.items(this.queries.rows(resolved, { order: 'asc' }), { aux: true, ids: null });
    const sources = this.positionSources;
    // Each event's recording and offset per camera (docs/video.md#exports), as a `video` record's properties.
    const index = video ? await video.within(record.start_ts, record.stop_ts) : null;
    const withVideo = (item: EventItem) => (index && !index.empty ? withVideoAux(item, index.at(item.row.ts)) : item);
    const place = (plain: EventItem): GisEvent => {
      const item = withVideo(plain);
      const ts = item.row.ts;
      const track = tracks.find((t) => ts >= t.window.start_ts && ts <= t.window.stop_ts);
      if (track) {
        return { item, position: track.byEvent.get(item.row.id) ?? null, loweringId: track.loweringId, cruiseId };
      }
      // An event of a cruise outside its lowerings: its own first configured source.
      const reading = readAuxPosition(
        positionRecordOf(
          (item.aux ?? []).map((a) => ({ ...a, data_array: parseJson<EventAuxData['data_array']>(a.data_array, []) })),
          sources,
        ) ?? { data_array: [] },
      );
      const pos = reading.ok ? reading.position : null;
      const position =
        pos && pos.lat !== null && pos.lon !== null ? { lat: pos.lat, lon: pos.lon, depth: pos.depth } : null;
      return { item, position, cruiseId };
    };
    async function* body() {
      yield writer.open(record.humanId);
      let first = true;
      const next = (piece: string) => {
        const out = first ? piece : writer.separator + piece;
        first = false;
        return out;
      };
      for (const track of tracks) {
        const piece = writer.track(track);
        if (piece !== null) yield next(piece);
      }
      for await (const chunk of items()) {
        if (chunk.length > 0) yield chunk.map((item) => next(writer.event(place(item)))).join('');
      }
      yield writer.close();
    }
    return {
      name: record.humanId,
      contentType: gisContentTypes[format],
      body: Readable.from(body(), { objectMode: false }),
    };
  }
}
