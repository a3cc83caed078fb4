import { useState } from 'react';
import { Button, Card, Collapse } from 'react-bootstrap';
import { Link } from 'wouter';
import {
  formatDuration,
  formatListDateTime,
  loweringAbortedAt,
  loweringBoundingBox,
  loweringMaxDepth,
  loweringSummaryText,
  phaseDurations,
  checklistItemSatisfied,
  checklistRunWasRun,
  type ChecklistRun,
  type Lowering,
} from '@bathylog/shared';
import { embargoText, useArchiveMode } from '../../lib/archive';
import { useEntityNames, useSettings } from '../../lib/settings';
import { ExportDropdown } from '../../domain/events/components/export-dropdown';
import { CopyButton } from '../../domain/records/components/copy-button';
import { FromShip } from '../../domain/records/components/from-ship';
import { RecordFiles } from '../../domain/records/components/record-files';
import { useLoweringMetrics } from '../../domain/lowerings/metrics-api';
import { useChecklistRuns, useChecklists } from '../../domain/checklists/checklists-api';
import { LazyChecklistsModal } from '../../domain/checklists/lazy-checklists-modal';
import { DiveMetricsTable, metricsSummaryItems } from '../../domain/lowerings/metrics-table';
import { Line } from './cruise-card';
import { ReviewMenu } from './review-menu';

/** The selected lowering (docs/screens.md#lowering-card): times, phases, stats, files, review and export. */
export function LoweringCard({ lowering, onExportError }: { lowering: Lowering; onExportError: (m: string) => void }) {
  const names = useEntityNames();
  const settings = useSettings();
  const meta = lowering.lowering_additional_meta;
  const aborted = loweringAbortedAt(lowering, settings.milestones);
  const depth = loweringMaxDepth(lowering);
  const box = loweringBoundingBox(lowering);
  const headingId = 'lowering-card-title';
  // An embargoed dive reaches the archive visitor as a stub: nothing to review or export yet.
  const archive = useArchiveMode();
  const embargo = archive ? embargoText(lowering.lowering_embargo_until) : null;
  return (
    <Card className="mb-3" as="section" aria-labelledby={headingId}>
      <Card.Header className="d-flex align-items-center">
        <h2 id={headingId} className="h6 mb-0 me-auto">
          {names.Lowering}: <span className="text-warning">{lowering.lowering_id}</span>
        </h2>
        {!embargo && (
          <>
            <ReviewMenu loweringId={lowering.id} id="lowering-review-menu" />
            <span className="ms-2">
              <ExportDropdown
                filter={{}}
                scope={{ kind: 'lowering', id: lowering.id }}
                prefix={lowering.lowering_id}
                id="lowering-export"
                label={`Export the events of ${lowering.lowering_id}`}
                onError={onExportError}
              />
            </span>
          </>
        )}
        <CopyButton
          text={() => loweringSummaryText(lowering, names, settings.milestones)}
          label={`Copy ${lowering.lowering_id} to clipboard`}
        />
      </Card.Header>
      <Card.Body>
        {embargo && <p className="fw-bold mb-2">{embargo}</p>}
        {meta.lowering_name && <Line label={`${names.Lowering} Name`}>{meta.lowering_name}</Line>}
        <FromShip origin={lowering.origin} />
        {meta.lowering_description && (
          <p className="mb-2 record-description">
            <strong>Description:</strong> {meta.lowering_description}
          </p>
        )}
        {lowering.lowering_location && (
          <p className="mb-2">
            <strong>Location:</strong> {lowering.lowering_location}
          </p>
        )}
        <Line label="Started">{formatListDateTime(lowering.start_ts)}</Line>
        {phaseDurations(lowering, settings.milestones).map((p) => (
          <Line key={p.phase} label={p.phase}>
            {formatDuration(p.ms)}
          </Line>
        ))}
        {aborted && <Line label="Aborted">{formatListDateTime(aborted)}</Line>}
        {depth !== null && <Line label="Max depth (lowering record)">{depth}</Line>}
        {box !== null && <Line label="Bounding Box">{box}</Line>}
        {!embargo && !archive && <LoweringChecklists lowering={lowering} />}
        {!embargo && <LoweringMetricsSection loweringId={lowering.id} />}
        <div className="mt-2">
          {!embargo && <RecordFiles kind="lowering" recordId={lowering.id} files={meta.lowering_files} />}
        </div>
      </Card.Body>
    </Card>
  );
}

/**
 * The dive's metrics on the card (docs/review-and-gis.md#dive-metrics): a compact summary, the
 * full table behind "Dive metrics", and the link to the printable dive report.
 */
function LoweringMetricsSection({ loweringId }: { loweringId: string }) {
  const metrics = useLoweringMetrics(loweringId);
  const archive = useArchiveMode();
  const [open, setOpen] = useState(false);
  const tableId = 'lowering-metrics-table';
  return (
    <div className="mt-2 pt-2 border-top" data-testid="lowering-metrics">
      {metrics.isPending ? (
        <div className="text-secondary">Fetching...</div>
      ) : metrics.isError ? (
        <div className="text-danger">Dive metrics could not be read.</div>
      ) : (
        <>
          <div className="d-flex gap-3 align-items-center">
            <Button
              variant="link"
              size="sm"
              className="p-0"
              aria-expanded={open}
              aria-controls={tableId}
              onClick={() => setOpen((o) => !o)}
            >
              <i className={`bi ${open ? 'bi-chevron-down' : 'bi-chevron-right'} me-1`} aria-hidden="true" />
              Dive metrics
            </Button>
            <Link to={`/report/lowering/${loweringId}`} className="small">
              <i className="bi bi-file-earmark-text me-1" aria-hidden="true" />
              Dive Report
            </Link>
            {/* Publishing is for signed-in crew; the archive visitor has the exports of the review screens. */}
            {!archive && (
              <Link to={`/publication/lowering/${loweringId}`} className="small">
                <i className="bi bi-box-seam me-1" aria-hidden="true" />
                Publish (Darwin Core)
              </Link>
            )}
          </div>
          <div className="ms-3">
            {metricsSummaryItems(metrics.data).map((item) => (
              <Line key={item.label} label={item.label}>
                {item.value}
              </Line>
            ))}
          </div>
          <Collapse in={open}>
            <div id={tableId}>{open && <DiveMetricsTable figures={metrics.data} caption="Dive metrics" />}</div>
          </Collapse>
        </>
      )}
    </div>
  );
}

/** How far a run is: "complete", or how many of its items are done. */
function runProgress(run: ChecklistRun): string {
  if (run.state === 'complete') return 'complete';
  const done = run.items.filter(checklistItemSatisfied).length;
  return `${done} of ${run.items.length} done`;
}

/**
 * The lowering's checklist runs in one line, live, with the runs themselves a click away. Only runs
 * someone ran count (docs/checklists.md#the-lowering-card): showing the card starts no run, and a
 * run only started says nothing about the dive.
 */
function LoweringChecklists({ lowering }: { lowering: Lowering }) {
  const runs = useChecklistRuns(lowering.id, { start: false });
  const definitions = useChecklists();
  const [open, setOpen] = useState(false);
  if (runs.isPending || definitions.isPending) return null;
  const ran = runs.data?.filter(checklistRunWasRun) ?? [];
  // No checklist defined and none run: nothing to say or open.
  if (ran.length === 0 && definitions.data?.length === 0) return null;
  return (
    <div className="mt-2" data-testid="lowering-checklists">
      <strong>Checklists:</strong>{' '}
      {runs.isError ? (
        <span className="text-danger">could not be read.</span>
      ) : (
        <>
          {ran.length === 0
            ? 'none run'
            : ran.map((run, i) => (
                <span key={run.id}>
                  {i > 0 && ' · '}
                  {run.name}: {runProgress(run)}
                </span>
              ))}
          <Button variant="link" size="sm" className="p-0 ms-2 align-baseline" onClick={() => setOpen(true)}>
            Open checklists
          </Button>
        </>
      )}
      {open && <LazyChecklistsModal show onHide={() => setOpen(false)} lowering={lowering} />}
    </div>
  );
}
