import { Table } from 'react-bootstrap';
import {
  distanceMethod,
  formatDepth,
  formatDistance,
  formatDuration,
  metricRows,
  type DiveFigures,
  type MetricRow,
} from '@bathylog/shared';

// Each figure says what it is measured from: the navigation's depths are not the record's stats
// (its "Max depth (lowering record)"), and a distance is only as good as its method
// (docs/review-and-gis.md#dive-metrics).
const maxDepthLabel = 'Max depth (navigation)';
const distanceLabel = `Distance on bottom (${distanceMethod})`;

const fixedLabels: Record<string, string> = {
  max_depth: maxDepthLabel,
  mean_depth: 'Mean depth, whole dive (navigation)',
  bottom_mean_depth: 'Mean depth on bottom (navigation)',
  bottom_distance: distanceLabel,
  events_total: 'Events',
  samples_total: 'Samples',
  framegrabs_total: 'Frame grabs',
};

const groupLabels: Record<string, string> = {
  duration: 'Duration',
  events_by_category: 'Category',
  events_by_author: 'Author',
  samples_by_value: 'Sample',
  framegrabs_by_camera: 'Camera',
};

/** How a metric row is named on screen: "Duration: Descent", "Category: SAMPLE", "Max depth". */
export function metricLabel(metric: string): string {
  const fixed = fixedLabels[metric];
  if (fixed) return fixed;
  const dot = metric.indexOf('.');
  const group = groupLabels[metric.slice(0, dot)];
  return group ? `${group}: ${metric.slice(dot + 1)}` : metric;
}

/** A metric's value as users read it: durations as on the lowering card, metres, counts. */
export function metricValue(row: MetricRow): string {
  if (row.value === null) return '—';
  if (row.unit === 's') return formatDuration(row.value * 1000);
  if (row.metric === 'bottom_distance') return formatDistance(row.value);
  if (row.unit === 'm') return formatDepth(row.value);
  return String(row.value);
}

/** Every figure of a dive (or a cruise's sums), one row each (docs/review-and-gis.md#dive-metrics). */
export function DiveMetricsTable({
  figures,
  caption,
  testId,
  only,
}: {
  figures: DiveFigures;
  caption: string;
  testId?: string;
  /** The rows to show (default: all). */
  only?: (metric: string) => boolean;
}) {
  return (
    <Table size="sm" striped className="mb-2 metrics-table" data-testid={testId}>
      <caption className="caption-top">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Metric</th>
          <th scope="col" className="text-end">
            Value
          </th>
        </tr>
      </thead>
      <tbody>
        {metricRows(figures)
          .filter((row) => !only || only(row.metric))
          .map((row) => (
            <tr key={row.metric}>
              <th scope="row" className="fw-normal">
                {metricLabel(row.metric)}
              </th>
              <td className="text-end">{metricValue(row)}</td>
            </tr>
          ))}
      </tbody>
    </Table>
  );
}

/** The labels of the compact summary, in its order (a table's column heads). */
export const metricsSummaryLabels = ['Duration', maxDepthLabel, distanceLabel, 'Samples'] as const;

/** The compact summary: total duration, max depth, distance on bottom, samples. */
export function metricsSummaryItems(f: DiveFigures): Array<{ label: string; value: string }> {
  const total = f.durations.find((d) => d.stage === 'Deck-to-Deck');
  const values = [
    total ? formatDuration(total.seconds * 1000) : '—',
    f.max_depth === null ? '—' : formatDepth(f.max_depth),
    f.bottom_distance === null ? '—' : formatDistance(f.bottom_distance),
    String(f.samples_total),
  ];
  return metricsSummaryLabels.map((label, i) => ({ label, value: values[i]! }));
}
