import { useCallback, useMemo, useState, type JSX } from 'react';
import { Button, Col, Modal, Row } from 'react-bootstrap';
import {
  boundingBoxOf,
  errorsAfterMove,
  maxDepthOf,
  milestoneFields,
  milestonesUpdateBody,
  milestoneValuesOf,
  statsValuesOf,
  validateMilestonesForm,
  type DiveTrack,
  type LogEvent,
  type MilestonesFormErrors,
  type Lowering,
  type MilestoneValues,
  type StatsValues,
  type TrackPoint,
} from '@bathylog/shared';
import { ErrorAlert } from '../../components/alerts';
import { ModalFooter, ModalHeader } from '../../components/modal-parts';
import { IconButton } from '../../components/icon-button';
import { DepthChart, type DepthChartLine } from '../../components/maps/depth-chart';
import { DiveMap, type MapPosition } from '../../components/maps/dive-map';
import { LoadingText, statusTexts } from '../../components/status-text';
import { errorMessage } from '../../api/client';
import { useSettings } from '../../lib/settings';
import type { MilestonesModalProps } from '../../domain/lowerings/milestones-slot';
import { useLoweringMetrics } from '../../domain/lowerings/metrics-api';
import { DiveMetricsTable } from '../../domain/lowerings/metrics-table';
import { updateLoweringMilestones, useMilestonesData } from './milestones-api';
import { TweakForm } from './tweak-form';
import './milestones.css';

interface Built {
  eventsById: Map<string, LogEvent>;
  pointsById: Map<string, TrackPoint>;
}

/** What the chart's tooltip says of an event: its value, the text or milestone, the time, the click hint. */
function tooltipLines(event: LogEvent | undefined, ts: number, editing: string | null): string[] {
  const lines: string[] = [];
  if (event) {
    lines.push(`EVENT: ${event.event_value}`);
    if (event.event_value === 'FREE_FORM' && event.event_free_text) lines.push(`Text: ${event.event_free_text}`);
    const milestone = event.event_options.find((o) => o.event_option_name === 'milestone');
    if (event.event_value === 'VEHICLE' && milestone) lines.push(`Milestone: ${milestone.event_option_value}`);
  }
  lines.push(new Date(ts).toISOString());
  if (editing) lines.push(`Click to set ${editing}.`);
  return lines;
}

/**
 * The milestones/stats editor of a lowering (docs/screens.md#milestones-editor), opened from
 * the lowering form's Milestones button.
 */
export function MilestonesModal(props: MilestonesModalProps): JSX.Element {
  const { show, onHide } = props;
  return (
    <Modal show={show} onHide={onHide} size="xl" aria-labelledby="milestones-modal-title" className="milestones-modal">
      {show && <MilestonesEditor {...props} />}
    </Modal>
  );
}

function MilestonesEditor({ loweringId, onHide, onSaved }: MilestonesModalProps) {
  const { lowering, track, events } = useMilestonesData(loweringId, true);
  const title = lowering.data ? `${lowering.data.lowering_id} - Milestones / Stats` : 'Milestones / Stats';
  const failed = lowering.error ?? track.error;
  return (
    <>
      <ModalHeader id="milestones-modal-title">{title}</ModalHeader>
      {failed ? (
        <>
          <Modal.Body>
            <ErrorAlert message={errorMessage(failed)} />
          </Modal.Body>
          <ModalFooter onClose={onHide} />
        </>
      ) : lowering.data && track.data ? (
        <EditorBody
          lowering={lowering.data}
          track={track.data}
          events={events.data}
          onHide={onHide}
          onSaved={onSaved}
        />
      ) : (
        <Modal.Body>
          <LoadingText text={statusTexts.loading} />
        </Modal.Body>
      )}
    </>
  );
}

function EditorBody({
  lowering,
  track,
  events,
  onHide,
  onSaved,
}: {
  lowering: Lowering;
  track: DiveTrack;
  /** The lowering's events, for the tooltips; undefined while they load. */
  events: LogEvent[] | undefined;
  onHide: () => void;
  onSaved: () => void;
}) {
  const settings = useSettings();
  const fields = useMemo(() => milestoneFields(settings.milestones), [settings.milestones]);
  const { eventsById, pointsById } = useMemo<Built>(
    () => ({
      eventsById: new Map((events ?? []).map((e) => [e.id, e])),
      pointsById: new Map(track.points.map((p) => [p.eventId, p])),
    }),
    [events, track],
  );

  const [milestones, setMilestones] = useState<MilestoneValues>(() => milestoneValuesOf(lowering, settings.milestones));
  const [stats, setStats] = useState<StatsValues>(() => statsValuesOf(lowering.lowering_additional_meta.stats));
  const [touched, setTouched] = useState(false);
  const [editing, setEditing] = useState<string | null>(null);
  const [tweaking, setTweaking] = useState(false);
  const [pin, setPin] = useState<MapPosition | null>(null);
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);
  /** The milestone a chart click moved last, and the messages before that click. */
  const [moved, setMoved] = useState<{ key: string; before: MilestonesFormErrors } | null>(null);

  const checked = useMemo(
    () => validateMilestonesForm(milestones, stats, settings.milestones),
    [milestones, stats, settings.milestones],
  );
  const errors = useMemo(
    () => (moved ? errorsAfterMove(moved.before, checked, moved.key, fields) : checked),
    [moved, checked, fields],
  );
  const valid = Object.keys(errors).length === 0;
  const firstProblem = fields.find((f) => errors[f.key]);
  const editingLabel = fields.find((f) => f.key === editing)?.label ?? null;

  const lines = useMemo<DepthChartLine[]>(() => {
    const out: DepthChartLine[] = [];
    for (const f of fields) {
      const t = milestones[f.key] ? Date.parse(milestones[f.key]!) : NaN;
      if (Number.isFinite(t)) out.push({ ts: t, highlighted: f.key === editing });
    }
    return out;
  }, [fields, milestones, editing]);

  const depths = track.depths;
  const tooltip = useCallback(
    (i: number) => {
      const d = depths[i];
      return d ? tooltipLines(eventsById.get(d.eventId), d.ts, editingLabel) : [];
    },
    [depths, eventsById, editingLabel],
  );
  const onHover = useCallback(
    (i: number | null) => {
      const d = i === null ? undefined : depths[i];
      const p = d ? pointsById.get(d.eventId) : undefined;
      if (p) setPin((old) => (old && old.lat === p.lat && old.lon === p.lon ? old : { lat: p.lat, lon: p.lon }));
    },
    [depths, pointsById],
  );
  const onPointClick = useCallback(
    (i: number) => {
      const d = depths[i];
      if (!editing || !d) return;
      setMoved({ key: editing, before: checked });
      setMilestones((m) => ({ ...m, [editing]: new Date(d.ts).toISOString() }));
      setEditing(null);
      setTouched(true);
    },
    [depths, editing, checked],
  );

  const calculateMaxDepth = () => {
    const max = maxDepthOf(track.depths);
    if (max === null) return;
    setStats((s) => ({ ...s, maxDepth: String(max) }));
    setTouched(true);
  };
  const calculateBoundingBox = () => {
    const box = boundingBoxOf(track.points);
    if (!box) return;
    setStats((s) => ({
      ...s,
      north: String(box.north),
      east: String(box.east),
      south: String(box.south),
      west: String(box.west),
    }));
    setTouched(true);
  };

  const update = async () => {
    setSaving(true);
    setSaveError(null);
    try {
      await updateLoweringMilestones(
        lowering.id,
        milestonesUpdateBody(lowering, milestones, stats, settings.milestones),
      );
      setTouched(false);
      onSaved();
      onHide();
    } catch (err) {
      setSaveError(errorMessage(err));
    } finally {
      setSaving(false);
    }
  };

  const box = [stats.north, stats.east, stats.south, stats.west];
  const noNav = track.points.length === 0 && track.depths.length === 0;

  return (
    <>
      <Modal.Body>
        <ErrorAlert message={saveError} onClose={() => setSaveError(null)} />
        <DiveMap height={400} track={track.points} pin={pin} label={`${lowering.lowering_id} trackline`} />
        <div className="mt-2">
          {noNav ? (
            <div className="depth-chart-empty text-secondary text-center p-4">No data to display</div>
          ) : (
            <DepthChart
              points={depths}
              height={200}
              lines={lines}
              tooltip={tooltip}
              onHover={onHover}
              onPointClick={onPointClick}
              label={`${lowering.lowering_id} depth profile`}
            />
          )}
        </div>
        {tweaking ? (
          <TweakForm
            fields={fields}
            milestones={milestones}
            stats={stats}
            settings={settings.milestones}
            onCancel={() => setTweaking(false)}
            onDone={(m, s) => {
              setMoved(null);
              setMilestones(m);
              setStats(s);
              setTouched(true);
              setTweaking(false);
            }}
          />
        ) : (
          <Row className="mt-3 milestones-columns">
            <Col lg={6}>
              <h6 className="milestones-heading">Milestones</h6>
              {editing && (
                <p className="small text-secondary mb-1">Click a point on the chart to set {editingLabel}.</p>
              )}
              <ul className="list-unstyled mb-0">
                {fields.map((f) => (
                  <li key={f.key} className={errors[f.key] ? 'milestone-invalid' : undefined}>
                    <button
                      type="button"
                      className={`btn btn-link p-0 align-baseline fw-bold text-decoration-none milestone-label${editing === f.key ? ' selected' : ''}`}
                      aria-pressed={editing === f.key}
                      aria-describedby={errors[f.key] ? `milestone-error-${f.key}` : undefined}
                      onClick={() => setEditing((e) => (e === f.key ? null : f.key))}
                    >
                      {f.label}
                    </button>
                    : <span className="milestone-value">{milestones[f.key] ?? ''}</span>
                    {errors[f.key] && (
                      <i className="bi bi-exclamation-triangle-fill text-danger-emphasis ms-2" aria-hidden="true" />
                    )}
                    {errors[f.key] && (
                      <div id={`milestone-error-${f.key}`} className="small text-danger-emphasis ms-3">
                        {errors[f.key]}
                      </div>
                    )}
                  </li>
                ))}
              </ul>
            </Col>
            <Col lg={6}>
              <h6 className="milestones-heading">Stats</h6>
              <div>
                <strong>Max Depth:</strong> <span data-testid="max-depth">{stats.maxDepth}</span>
                <IconButton
                  icon="bi-calculator"
                  className="align-baseline"
                  label="Calculate max depth from the nav data"
                  onClick={calculateMaxDepth}
                />
                {errors.maxDepth && <div className="small text-danger-emphasis ms-3">{errors.maxDepth}</div>}
              </div>
              <div>
                <strong>Bounding Box:</strong>{' '}
                <span data-testid="bounding-box">{box.every((v) => v === '') ? '' : box.join(', ')}</span>
                <IconButton
                  icon="bi-calculator"
                  className="align-baseline"
                  label="Calculate bounding box from the nav data"
                  onClick={calculateBoundingBox}
                />
                {(['north', 'east', 'south', 'west'] as const).map(
                  (k) =>
                    errors[k] && (
                      <div key={k} className="small text-danger-emphasis ms-3">
                        {k[0]!.toUpperCase() + k.slice(1)}: {errors[k]}
                      </div>
                    ),
                )}
              </div>
              <SavedMetrics loweringId={lowering.id} />
            </Col>
          </Row>
        )}
      </Modal.Body>
      <ModalFooter
        onClose={onHide}
        closeDisabled={saving}
        leading={
          !tweaking && (
            <>
              <Button variant="warning" size="sm" onClick={() => setTweaking(true)}>
                Tweak!
              </Button>
              <span id="milestones-update-note" className="small text-danger-emphasis me-auto" role="status">
                {touched && !valid
                  ? `Update is off until ${firstProblem ? `${firstProblem.label} is fixed` : 'the stats are fixed'}.`
                  : ''}
              </span>
            </>
          )
        }
        action={{
          label: saving ? 'Updating...' : 'Update',
          onClick: () => void update(),
          disabled: !touched || !valid || saving || tweaking,
          describedBy: touched && !valid ? 'milestones-update-note' : undefined,
        }}
      />
    </>
  );
}

/** The dive metrics from the saved milestones (docs/review-and-gis.md#dive-metrics). */
function SavedMetrics({ loweringId }: { loweringId: string }) {
  const metrics = useLoweringMetrics(loweringId);
  return (
    <div className="mt-3" data-testid="milestones-metrics">
      <h6 className="milestones-heading" id="milestones-metrics-title">
        Dive metrics
      </h6>
      {metrics.isPending ? (
        <LoadingText />
      ) : metrics.isError ? (
        <div className="text-danger">{errorMessage(metrics.error)}</div>
      ) : (
        // Scrolls within the editor: focusable, so the keyboard scrolls it too.
        <div className="milestones-metrics" tabIndex={0} role="region" aria-labelledby="milestones-metrics-title">
          <DiveMetricsTable figures={metrics.data} caption="From the saved milestones" />
        </div>
      )}
    </div>
  );
}
