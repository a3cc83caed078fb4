import {
  bottomSpanOf,
  distanceMethod,
  readAuxPosition,
  samplesOf,
  stageDurationsOf,
  sumFigures,
  TrackFolder,
  type CruiseMetrics,
  type EventAuxData,
  type LoweringMetrics,
} from '@bathylog/shared';
import type { AppContext } from '../../context.js';
import { AppError } from '../../lib/app-error.js';
import { parseJson } from '../../lib/json.js';
import type { AuthContext } from '../../plugins/auth.js';
import { isListedFor, viewerOf } from '../access/access.rules.js';
import type { EventAccess } from '../access/event-access.js';
import { EventQueries } from '../events/event-queries.js';
import { DiveMetricsRepository, type MetricsLowering, type MetricsWindow } from './dive-metrics.repository.js';

type AuxArray = EventAuxData['data_array'];

/**
 * Dive metrics (docs/review-and-gis.md#dive-metrics): counts grouped in SQL over the lowering's
 * window, the depth and distance figures from one pass over the track records of the position
 * source (the first configured source with records, packages/shared nav.ts). Reading them follows
 * the rule for reading the record's events (401 when the caller may not open it, 404 when missing);
 * the events counted are those the caller may see.
 */
export class DiveMetricsService {
  private readonly queries: EventQueries;
  private readonly repo: DiveMetricsRepository;

  constructor(private readonly ctx: AppContext) {
    this.queries = new EventQueries(ctx);
    this.repo = new DiveMetricsRepository(ctx.database.db);
  }

  async lowering(caller: AuthContext, id: string, access: EventAccess): Promise<LoweringMetrics> {
    // The rule for reading the lowering's events: 404 when missing, 401 when the caller may not open it.
    await this.queries.record(caller, 'lowering', id, new AppError('NOT_FOUND', 'lowering not found for that id'));
    const [lowering] = await this.repo.lowerings({ id });
    if (!lowering) throw new AppError('NOT_FOUND', 'lowering not found for that id');
    return this.metricsOf(lowering, access);
  }

  async cruise(caller: AuthContext, id: string, access: EventAccess): Promise<CruiseMetrics> {
    const cruise = await this.queries.record(
      caller,
      'cruise',
      id,
      new AppError('NOT_FOUND', 'cruise not found for that id'),
    );
    const viewer = viewerOf(caller);
    const lowerings = (await this.repo.lowerings({ lo: cruise.start_ts, hi: cruise.stop_ts })).filter((l) =>
      isListedFor(viewer, { ...l, ref: { kind: 'lowering', id: l.id } }, this.ctx.config.useAccessControl),
    );
    const rows: LoweringMetrics[] = [];
    for (const l of lowerings) rows.push(await this.metricsOf(l, access));
    return { id: cruise.id, cruise_id: cruise.humanId, lowerings: rows, totals: sumFigures(rows) };
  }

  private async metricsOf(lowering: MetricsLowering, access: EventAccess): Promise<LoweringMetrics> {
    const settings = this.ctx.config.client.milestones;
    const meta = parseJson<{ milestones?: Record<string, string | null> } | null>(lowering.meta, {});
    const times = {
      start_ts: new Date(lowering.start_ts).toISOString(),
      stop_ts: new Date(lowering.stop_ts).toISOString(),
      lowering_additional_meta: { milestones: meta?.milestones ?? {} },
    };
    const w: MetricsWindow = { lo: lowering.start_ts, hi: lowering.stop_ts, hidden: access };
    const [byCategory, byAuthor, images, track] = await Promise.all([
      this.repo.countsBy('event_value', w),
      this.repo.countsBy('event_author', w),
      this.repo.imageRecords(this.ctx.config.client.imagesAuxDataSources, w),
      this.track(w, bottomSpanOf(times, settings)),
    ]);
    const sampleValues = this.ctx.config.sampleEventValues;
    return {
      id: lowering.id,
      lowering_id: lowering.humanId,
      start_ts: times.start_ts,
      stop_ts: times.stop_ts,
      position_source: track.source,
      sample_values: [...sampleValues],
      distance_method: distanceMethod,
      durations: stageDurationsOf(times, settings),
      ...track.figures,
      events_total: Object.values(byCategory).reduce((a, b) => a + b, 0),
      events_by_category: byCategory,
      events_by_author: byAuthor,
      ...samplesOf(byCategory, sampleValues),
      ...framegrabsOf(images),
    };
  }

  /** Depth and distance figures: one pass over the records of the first position source with any. */
  private async track(w: MetricsWindow, bottom: { from: number; to: number } | null) {
    const folder = new TrackFolder(bottom);
    for (const source of this.ctx.config.client.positionDataSources) {
      const rows = await this.repo.trackRecords(source, w);
      if (rows.length === 0) continue;
      for (const r of rows) {
        const reading = readAuxPosition({ data_array: parseJson<AuxArray>(r.data_array, []) });
        if (!reading.ok) continue;
        const { lat, lon, depth } = reading.position;
        if (depth !== null) folder.depth({ ts: Number(r.ts), depth });
        if (lat !== null && lon !== null) folder.point({ ts: Number(r.ts), lat, lon });
      }
      return { source, figures: folder.result() };
    }
    return { source: null, figures: folder.result() };
  }
}

/**
 * Frame grabs per camera: image records hold (camera name, file) pairs, as the gallery reads them
 * (the first value of each pair names the camera); each pair is one frame grab.
 */
export function framegrabsOf(records: readonly string[]) {
  const byCamera: Record<string, number> = {};
  let total = 0;
  for (const text of records) {
    const items = parseJson<AuxArray>(text, []);
    for (let i = 0; i + 1 < items.length; i += 2) {
      const camera = String(items[i]!.data_value);
      byCamera[camera] = (byCamera[camera] ?? 0) + 1;
      total += 1;
    }
  }
  return { framegrabs_total: total, framegrabs_by_camera: byCamera };
}
