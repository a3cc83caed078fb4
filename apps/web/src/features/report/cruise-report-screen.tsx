import { Link } from 'wouter';
import { Table } from 'react-bootstrap';
import { formatSlashDate } from '@bathylog/shared';
import { errorMessage } from '../../api/client';
import { ErrorAlert } from '../../components/alerts';
import { LoadingText } from '../../components/status-text';
import { useEntityNames } from '../../lib/settings';
import { cruiseMenuPath } from '../../domain/cruises/cruise-menu-link';
import { useCruiseMetrics } from '../../domain/lowerings/metrics-api';
import { DiveMetricsTable, metricsSummaryItems, metricsSummaryLabels } from '../../domain/lowerings/metrics-table';
import { useReportCruise } from './report-api';
import { Field, ReportSection, ReportToolbar, SectionState } from './report-parts';
import './report.css';

/**
 * /report/cruise/{id} (docs/review-and-gis.md#dive-report): the cruise's fields, one line of
 * figures per dive (each linking to its dive report) and the summed metrics.
 */
export function CruiseReportScreen({ cruiseId }: { cruiseId: string }) {
  const names = useEntityNames();
  const cruise = useReportCruise(cruiseId);
  const metrics = useCruiseMetrics(cruiseId);
  if (cruise.isPending) return <LoadingText />;
  if (cruise.isError) {
    return (
      <div className="report-page">
        <ErrorAlert message={errorMessage(cruise.error)} />
      </div>
    );
  }
  const c = cruise.data;
  const meta = c.cruise_additional_meta;
  return (
    <div className="report-page" data-testid="cruise-report">
      <ReportToolbar back={cruiseMenuPath({ cruiseId, loweringId: null })} backLabel={`Back to ${names.cruises}`} />
      <h1 className="h3 mb-3">
        {names.Cruise} Report: <span className="text-warning">{c.cruise_id}</span>
      </h1>
      <ReportSection title={names.Cruise} id="header">
        <Table size="sm" className="report-fields mb-0">
          <tbody>
            <Field label={`${names.Cruise} ID`}>{c.cruise_id}</Field>
            <Field label={`${names.Cruise} Name`}>{meta.cruise_name ?? ''}</Field>
            <Field label="Chief Scientist">{meta.cruise_pi ?? ''}</Field>
            <Field label="Vessel">{meta.cruise_vessel ?? ''}</Field>
            <Field label="Location">{c.cruise_location}</Field>
            <Field label="Dates">{`${formatSlashDate(c.start_ts)} – ${formatSlashDate(c.stop_ts)}`}</Field>
          </tbody>
        </Table>
      </ReportSection>
      <ReportSection title={names.Lowerings} id="lowerings">
        <SectionState query={metrics}>
          {(m) =>
            m.lowerings.length === 0 ? (
              <p className="text-secondary mb-0">{`No ${names.lowerings} found!`}</p>
            ) : (
              <Table size="sm" striped className="mb-0">
                <thead>
                  <tr>
                    <th scope="col">{names.Lowering}</th>
                    {metricsSummaryLabels.map((label) => (
                      <th key={label} scope="col" className="text-end">
                        {label}
                      </th>
                    ))}
                    <th scope="col" className="text-end">
                      Events
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {m.lowerings.map((l) => (
                    <tr key={l.id}>
                      <td>
                        <Link to={`/report/lowering/${l.id}`}>{l.lowering_id}</Link>
                      </td>
                      {metricsSummaryItems(l).map((item) => (
                        <td key={item.label} className="text-end">
                          {item.value}
                        </td>
                      ))}
                      <td className="text-end">{l.events_total}</td>
                    </tr>
                  ))}
                  <tr className="fw-bold">
                    <td>Total</td>
                    {metricsSummaryItems(m.totals).map((item) => (
                      <td key={item.label} className="text-end">
                        {item.value}
                      </td>
                    ))}
                    <td className="text-end">{m.totals.events_total}</td>
                  </tr>
                </tbody>
              </Table>
            )
          }
        </SectionState>
      </ReportSection>
      <ReportSection title="Dive metrics, summed" id="metrics">
        <SectionState query={metrics}>
          {(m) => (
            <DiveMetricsTable
              figures={m.totals}
              caption={`Over ${m.lowerings.length} ${m.lowerings.length === 1 ? names.lowering : names.lowerings}`}
            />
          )}
        </SectionState>
      </ReportSection>
    </div>
  );
}
