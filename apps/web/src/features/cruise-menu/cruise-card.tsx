import type { ReactNode } from 'react';
import { Card } from 'react-bootstrap';
import { cruiseSummaryText, formatDuration, formatSlashDate, type Cruise, type Lowering } from '@bathylog/shared';
import { ErrorAlert } from '../../components/alerts';
import { embargoText, useArchiveMode } from '../../lib/archive';
import { readFailure } from '../../lib/read-errors';
import { useEntityNames } from '../../lib/settings';
import { ExportDropdown } from '../../domain/events/components/export-dropdown';
import { CopyButton } from '../../domain/records/components/copy-button';
import { FromShip } from '../../domain/records/components/from-ship';
import { RecordFiles } from '../../domain/records/components/record-files';
import { Link } from 'wouter';
import { useCruiseMetrics } from '../../domain/lowerings/metrics-api';
import { metricsSummaryItems } from '../../domain/lowerings/metrics-table';

/** "**Label:** value" on its own line. */
export function Line({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <strong>{label}:</strong> {children}
    </div>
  );
}

export const arrow = <i className="bi bi-arrow-right mx-1" aria-label="to" role="img" />;

export interface CruiseCardProps {
  cruise: Cruise;
  /** The cruise's lowerings in time order. */
  lowerings: Lowering[];
  loweringsLoading: boolean;
  /** The lowerings' read error, shown instead of the empty state. */
  loweringsError?: unknown;
  selectedLoweringId: string | null;
  onSelectLowering: (id: string) => void;
  onExportError: (message: string) => void;
}

/** The selected cruise (docs/screens.md#cruise-card): its fields, files and lowerings. */
export function CruiseCard({
  cruise,
  lowerings,
  loweringsLoading,
  loweringsError,
  selectedLoweringId,
  onSelectLowering,
  onExportError,
}: CruiseCardProps) {
  const names = useEntityNames();
  const meta = cruise.cruise_additional_meta;
  const headingId = 'cruise-card-title';
  // An embargoed cruise reaches the archive visitor as a stub: name, dates, when it opens.
  const embargo = useArchiveMode() ? embargoText(cruise.cruise_embargo_until) : null;
  return (
    <Card className="mb-3" as="section" aria-labelledby={headingId}>
      <Card.Header className="d-flex align-items-center">
        <h2 id={headingId} className="h6 mb-0 me-auto">
          {names.Cruise}: <span className="text-warning">{cruise.cruise_id}</span>
        </h2>
        {!embargo && (
          <ExportDropdown
            filter={{}}
            scope={{ kind: 'cruise', id: cruise.id }}
            prefix={cruise.cruise_id}
            id="cruise-export"
            label={`Export the events of ${cruise.cruise_id}`}
            onError={onExportError}
          />
        )}
        <CopyButton
          text={() =>
            cruiseSummaryText(
              cruise,
              names,
              lowerings.map((l) => l.lowering_id),
            )
          }
          label={`Copy ${cruise.cruise_id} to clipboard`}
        />
      </Card.Header>
      <Card.Body>
        {embargo && <p className="fw-bold mb-2">{embargo}</p>}
        <FromShip origin={cruise.origin} />
        {meta.cruise_name && <Line label={`${names.Cruise} Name`}>{meta.cruise_name}</Line>}
        {!embargo && <Line label="Chief Scientist">{meta.cruise_pi}</Line>}
        {meta.cruise_description && (
          <p className="my-2 record-description">
            <strong>Description:</strong> {meta.cruise_description}
          </p>
        )}
        {!embargo && <Line label="Vessel">{meta.cruise_vessel}</Line>}
        {cruise.cruise_location && <Line label="Location">{cruise.cruise_location}</Line>}
        <Line label="Dates">
          {formatSlashDate(cruise.start_ts)}
          {arrow}
          {formatSlashDate(cruise.stop_ts)}
        </Line>
        {meta.cruise_departure_location && (
          <Line label="Ports">
            {meta.cruise_departure_location}
            {arrow}
            {meta.cruise_arrival_location}
          </Line>
        )}
        <Line label="Duration">{formatDuration(Date.parse(cruise.stop_ts) - Date.parse(cruise.start_ts))}</Line>
        {!embargo && <CruiseMetricsLines cruiseId={cruise.id} />}
        <div className="mt-2">
          {!embargo && <RecordFiles kind="cruise" recordId={cruise.id} files={meta.cruise_files} />}
        </div>
        <div className="mt-3">
          <strong>{names.Lowerings}:</strong>
          {loweringsLoading ? (
            <div className="ms-3 text-secondary">Fetching...</div>
          ) : lowerings.length === 0 && readFailure(loweringsError) ? (
            <ErrorAlert message={readFailure(loweringsError)} className="ms-3 mt-1 mb-0 py-1 small" />
          ) : lowerings.length === 0 ? (
            <div className="ms-3 text-secondary">{`No ${names.lowerings} found!`}</div>
          ) : (
            <ul className="list-unstyled ms-3 mb-0" aria-label={names.Lowerings}>
              {lowerings.map((lowering) =>
                lowering.id === selectedLoweringId ? (
                  <li key={lowering.id} className="text-warning" aria-current="true">
                    {lowering.lowering_id}
                  </li>
                ) : (
                  <li key={lowering.id}>
                    <button
                      type="button"
                      className="btn btn-link p-0 text-decoration-none"
                      onClick={() => onSelectLowering(lowering.id)}
                    >
                      {lowering.lowering_id}
                    </button>
                  </li>
                ),
              )}
            </ul>
          )}
        </div>
      </Card.Body>
    </Card>
  );
}

/** The cruise's summed dive metrics (docs/review-and-gis.md#dive-metrics) and its report link. */
function CruiseMetricsLines({ cruiseId }: { cruiseId: string }) {
  const metrics = useCruiseMetrics(cruiseId);
  const archive = useArchiveMode();
  if (metrics.isPending) return <div className="text-secondary mt-2">Fetching...</div>;
  if (metrics.isError) return <div className="text-danger mt-2">Dive metrics could not be read.</div>;
  if (metrics.data.lowerings.length === 0) return null;
  return (
    <div className="mt-2" data-testid="cruise-metrics">
      {metricsSummaryItems(metrics.data.totals).map((item) => (
        <Line key={item.label} label={`All dives: ${item.label.toLowerCase()}`}>
          {item.value}
        </Line>
      ))}
      <Link to={`/report/cruise/${cruiseId}`} className="small">
        <i className="bi bi-file-earmark-text me-1" aria-hidden="true" />
        Cruise Report
      </Link>
      {!archive && (
        <Link to={`/publication/cruise/${cruiseId}`} className="small ms-3">
          <i className="bi bi-box-seam me-1" aria-hidden="true" />
          Publish (Darwin Core)
        </Link>
      )}
    </div>
  );
}
