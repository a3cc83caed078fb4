import { useMemo } from 'react';
import { Table } from 'react-bootstrap';
import {
  formatDuration,
  formatListDateTime,
  checklistRunWasRun,
  loweringMaxDepth,
  milestoneFields,
  milestoneFramegrabWindowText,
  milestoneValuesOf,
  thumbnailUrl,
  type ExportedEvent,
  type Lowering,
  type TrackPoint,
} from '@bathylog/shared';
import { errorMessage } from '../../api/client';
import { ErrorAlert } from '../../components/alerts';
import { LoadingText } from '../../components/status-text';
import { DepthChart } from '../../components/maps/depth-chart';
import { DiveMap, type DiveMapMarker } from '../../components/maps/dive-map';
import { useEntityNames, useSettings } from '../../lib/settings';
import { cruiseMenuPath } from '../../domain/cruises/cruise-menu-link';
import { imageCards } from '../../domain/events/lib/event-format';
import { useLoweringMetrics } from '../../domain/lowerings/metrics-api';
import { DiveMetricsTable } from '../../domain/lowerings/metrics-table';
import {
  useChecklists,
  useCompleteness,
  useReportCruiseOf,
  useReportLowering,
  useReportTrack,
  useStripEvents,
  type ChecklistRun,
  type Completeness,
} from './report-api';
import { Field, ReportSection, ReportToolbar, SectionState } from './report-parts';
import { milestoneLabelSides } from './milestone-labels';
import './report.css';

/** The track point nearest in time to `ts` (points in time order); null for an empty track. */
export function pointNear(points: readonly TrackPoint[], ts: number): TrackPoint | null {
  if (points.length === 0) return null;
  let lo = 0;
  let hi = points.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (points[mid]!.ts < ts) lo = mid + 1;
    else hi = mid;
  }
  const before = points[lo - 1];
  const at = points[lo]!;
  return before && ts - before.ts < at.ts - ts ? before : at;
}

interface MilestoneRow {
  key: string;
  label: string;
  iso: string;
  ts: number;
}

/** The set milestones of a lowering in the configured order, start and stop included. */
function useMilestoneRows(lowering: Lowering | undefined): MilestoneRow[] {
  const settings = useSettings();
  return useMemo(() => {
    if (!lowering) return [];
    const values = milestoneValuesOf(lowering, settings.milestones);
    return milestoneFields(settings.milestones).flatMap((f) => {
      const iso = values[f.key] ?? '';
      const ts = Date.parse(iso);
      return iso && Number.isFinite(ts) ? [{ key: f.key, label: f.label, iso, ts }] : [];
    });
  }, [lowering, settings.milestones]);
}

/**
 * /report/lowering/{id} (docs/review-and-gis.md#dive-report): a printable page of one dive. The
 * header fields, the map with the track and milestone markers, the depth profile, the metrics, the
 * milestones, the checklists as run, the completeness summary, the events per category and a strip
 * of frame-grab thumbnails at the milestones and sample events.
 */
export function LoweringReportScreen({ loweringId }: { loweringId: string }) {
  const names = useEntityNames();
  const lowering = useReportLowering(loweringId);
  const cruise = useReportCruiseOf(loweringId);
  const metrics = useLoweringMetrics(loweringId);
  const track = useReportTrack(loweringId);
  const milestones = useMilestoneRows(lowering.data);
  const l = lowering.data;

  const markers = useMemo<DiveMapMarker[]>(() => {
    const points = track.data?.points ?? [];
    const placed = milestones.flatMap((m) => {
      const p = pointNear(points, m.ts);
      return p ? [{ id: m.key, lat: p.lat, lon: p.lon, title: m.label, permanent: true }] : [];
    });
    const sides = milestoneLabelSides(placed, points);
    return placed.map((m, i) => ({ ...m, labelSide: sides[i]! }));
  }, [track.data, milestones]);

  // The page waits for the dive's cruise too: the Back link names it, and a link drawn before it
  // was known led to a cruise menu without the dive selected.
  if (lowering.isPending || cruise.isPending) return <LoadingText />;
  if (lowering.isError || !l) {
    return (
      <div className="report-page">
        <ErrorAlert message={errorMessage(lowering.error)} />
      </div>
    );
  }
  const back = cruise.data ? cruiseMenuPath({ cruiseId: cruise.data.id, loweringId }) : '/cruise_menu';
  const meta = l.lowering_additional_meta;
  const recordDepth = loweringMaxDepth(l);
  return (
    <div className="report-page" data-testid="dive-report">
      <ReportToolbar back={back} backLabel={`Back to ${names.cruises}`} />
      <h1 className="h3 mb-3">
        Dive Report: <span className="text-warning">{l.lowering_id}</span>
      </h1>
      <ReportSection title={names.Lowering} id="header">
        <Table size="sm" className="report-fields mb-0">
          <tbody>
            <Field label={`${names.Lowering} ID`}>{l.lowering_id}</Field>
            <Field label={names.Cruise}>{cruise.data?.cruise_id ?? ''}</Field>
            <Field label="Vessel">{cruise.data?.cruise_additional_meta.cruise_vessel ?? ''}</Field>
            <Field label="Location">{l.lowering_location}</Field>
            <Field label="Started">{formatListDateTime(l.start_ts)}</Field>
            <Field label="Ended">{formatListDateTime(l.stop_ts)}</Field>
            <Field label="Max depth (lowering record)">{recordDepth === null ? '' : `${recordDepth} m`}</Field>
            <Field label="Tags">{l.lowering_tags.join(', ')}</Field>
            <Field label="Description">
              {meta.lowering_description ? <div className="report-description">{meta.lowering_description}</div> : ''}
            </Field>
          </tbody>
        </Table>
      </ReportSection>

      <ReportSection title="Map" id="map">
        <div className="report-figure">
          <SectionState query={track} empty="No track">
            {(t) =>
              t.points.length === 0 ? (
                <p className="text-secondary mb-0">No track</p>
              ) : (
                <DiveMap height={340} track={t.points} markers={markers} label="Dive track and milestones" />
              )
            }
          </SectionState>
        </div>
      </ReportSection>

      <ReportSection title="Depth profile" id="depth">
        <div className="report-figure">
          <SectionState query={track} empty="No depth data">
            {(t) =>
              t.depths.length === 0 ? (
                <p className="text-secondary mb-0">No depth data</p>
              ) : (
                <DepthChart points={t.depths} height={200} lines={milestones.map((m) => ({ ts: m.ts }))} />
              )
            }
          </SectionState>
        </div>
      </ReportSection>

      <ReportSection title="Dive metrics" id="metrics">
        <SectionState query={metrics}>
          {(m) => (
            <DiveMetricsTable
              figures={m}
              caption={`Stages from the milestones; depths and distance from ${m.position_source ?? 'no position source'}`}
              only={(metric) => !metric.startsWith('events_by_category.')}
            />
          )}
        </SectionState>
      </ReportSection>

      <ReportSection title="Milestones" id="milestones">
        {milestones.length === 0 ? (
          <p className="text-secondary mb-0">No milestones</p>
        ) : (
          <Table size="sm" striped className="mb-0">
            <thead>
              <tr>
                <th scope="col">Milestone</th>
                <th scope="col">Time (UTC)</th>
                <th scope="col">Since start</th>
              </tr>
            </thead>
            <tbody>
              {milestones.map((m) => (
                <tr key={m.key}>
                  <td>{m.label}</td>
                  <td>{m.iso}</td>
                  <td>{formatDuration(m.ts - Date.parse(l.start_ts))}</td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </ReportSection>

      <ChecklistsSection loweringId={loweringId} />
      <CompletenessSection loweringId={loweringId} />

      <ReportSection title="Events per category" id="categories">
        <SectionState query={metrics}>
          {(m) => (
            <Table size="sm" striped className="mb-0">
              <thead>
                <tr>
                  <th scope="col">Category</th>
                  <th scope="col" className="text-end">
                    Events
                  </th>
                </tr>
              </thead>
              <tbody>
                {Object.entries(m.events_by_category)
                  .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
                  .map(([value, n]) => (
                    <tr key={value}>
                      <td>{value}</td>
                      <td className="text-end">{n}</td>
                    </tr>
                  ))}
              </tbody>
            </Table>
          )}
        </SectionState>
      </ReportSection>

      {metrics.data && (
        <ThumbnailStrip loweringId={loweringId} milestones={milestones} sampleValues={metrics.data.sample_values} />
      )}
    </div>
  );
}

function ChecklistsSection({ loweringId }: { loweringId: string }) {
  const checklists = useChecklists(loweringId);
  return (
    <ReportSection title="Checklists" id="checklists">
      <SectionState query={checklists}>
        {(all: ChecklistRun[]) => {
          // A run only started (nobody ticked it) records nothing about the dive.
          const runs = all.filter(checklistRunWasRun);
          return runs.length === 0 ? (
            <p className="text-secondary mb-0">Not recorded for this dive</p>
          ) : (
            runs.map((run) => (
              <Table key={run.id} size="sm" striped className="mb-2">
                <caption className="caption-top">
                  {run.name} ({run.phase.replace(/_/g, ' ')}) — {run.state}
                  {run.completed_at ? `, ${run.completed_at}${run.completed_by ? ` by ${run.completed_by}` : ''}` : ''}
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Item</th>
                    <th scope="col">State</th>
                    <th scope="col">By</th>
                    <th scope="col">At</th>
                  </tr>
                </thead>
                <tbody>
                  {run.items.map((item) => (
                    <tr key={item.id}>
                      <td>
                        {item.label}
                        {item.kind === 'auto' ? ' (auto)' : ''}
                        {item.reason ? ` — ${item.reason}` : ''}
                      </td>
                      <td>{item.state}</td>
                      <td>{item.by ?? ''}</td>
                      <td>{item.at ?? ''}</td>
                    </tr>
                  ))}
                </tbody>
              </Table>
            ))
          );
        }}
      </SectionState>
    </ReportSection>
  );
}

function CompletenessSection({ loweringId }: { loweringId: string }) {
  const completeness = useCompleteness(loweringId);
  return (
    <ReportSection title="Completeness" id="completeness">
      <SectionState query={completeness}>
        {(c: Completeness) => (
          <Table size="sm" striped className="mb-0">
            <tbody>
              <tr>
                <th scope="row">Required sources</th>
                <td>{c.required_sources.join(', ') || '—'}</td>
              </tr>
              <tr>
                <th scope="row">Events</th>
                <td>
                  {c.events_total} total, {c.events_complete} complete, {c.events_incomplete} incomplete,{' '}
                  {c.events_pending} pending, {c.events_late} late
                </td>
              </tr>
              {c.required_sources.map((s) => (
                <tr key={s}>
                  <th scope="row">{s}</th>
                  <td>
                    {c.missing_by_source[s] ?? 0} missing, {c.stale_by_source[s] ?? 0} stale
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </SectionState>
    </ReportSection>
  );
}

interface StripItem {
  key: string;
  caption: string;
  /** null: no frame grab within the milestone's window */
  url: string | null;
}

/**
 * Thumbnails (never the originals): at each milestone the frame grab taken nearest it within the
 * shared window, or a plain "none"; then every sample event's.
 */
function ThumbnailStrip({
  loweringId,
  milestones,
  sampleValues,
}: {
  loweringId: string;
  milestones: MilestoneRow[];
  sampleValues: string[];
}) {
  const settings = useSettings();
  const strip = useStripEvents(
    loweringId,
    milestones.map((m) => m.iso),
    sampleValues,
  );
  const imageOf = (event: ExportedEvent | null) => {
    const card = event ? imageCards(event.aux_data, settings)[0] : undefined;
    return card ? thumbnailUrl(card.url, 320) : null;
  };
  const items: StripItem[] = milestones.map((m, i) => {
    const e = strip.atMilestones[i] ?? null;
    const url = imageOf(e);
    return {
      key: `milestone-${m.key}`,
      caption: url && e ? `${m.label} — ${e.ts.slice(11, 19)}` : `${m.label} — none ${milestoneFramegrabWindowText}`,
      url,
    };
  });
  for (const e of strip.samples) {
    const url = imageOf(e);
    if (url) items.push({ key: `sample-${e.id}`, caption: `${e.event_value} — ${e.ts.slice(11, 19)}`, url });
  }
  return (
    <ReportSection title={`Frame grabs at milestones (${milestoneFramegrabWindowText}) and samples`} id="thumbnails">
      {strip.pending ? (
        <LoadingText />
      ) : strip.error ? (
        <div className="text-danger">{errorMessage(strip.error)}</div>
      ) : items.length === 0 ? (
        <p className="text-secondary mb-0">No images</p>
      ) : (
        <div className="report-strip">
          {items.map((item) => (
            <figure key={item.key}>
              {item.url ? (
                <img src={item.url} alt={item.caption} loading="lazy" width={320} height={180} />
              ) : (
                <div className="report-strip-none text-secondary">No frame grab</div>
              )}
              <figcaption>{item.caption}</figcaption>
            </figure>
          ))}
        </div>
      )}
    </ReportSection>
  );
}
