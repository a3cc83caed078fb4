import { useParams } from 'wouter';
import { ReviewLoweringGate } from '../../features/review/components/review-lowering-gate';
import { MapScreen } from '../../features/review/map-screen';
import { LazyMilestonesModal } from '../milestones-modal-slot';

/** /review_map/:loweringId (docs/screens.md#review-map). */
export function ReviewMapRoute() {
  const { loweringId = '' } = useParams();
  return (
    <ReviewLoweringGate key={loweringId} loweringId={loweringId}>
      <MapScreen key={loweringId} loweringId={loweringId} milestonesModal={LazyMilestonesModal} />
    </ReviewLoweringGate>
  );
}
