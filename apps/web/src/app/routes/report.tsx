import { useParams } from 'wouter';
import { CruiseReportScreen } from '../../features/report/cruise-report-screen';
import { LoweringReportScreen } from '../../features/report/lowering-report-screen';

/** /report/lowering/:id (docs/review-and-gis.md#dive-report). */
export function LoweringReportRoute() {
  const { id = '' } = useParams();
  return <LoweringReportScreen key={id} loweringId={id} />;
}

/** /report/cruise/:id (docs/review-and-gis.md#dive-report). */
export function CruiseReportRoute() {
  const { id = '' } = useParams();
  return <CruiseReportScreen key={id} cruiseId={id} />;
}
