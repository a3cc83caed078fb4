import { useParams } from 'react-router';
import { MapScreen } from '../../features/review/map-screen';
import { LazyMilestonesModal } from '../milestones-modal-slot';

/** /review_map/:loweringId (docs/screens.md#review-map). */
export function ReviewMapRoute() {
  const { loweringId = '' } = useParams();
  return <MapScreen key={loweringId} loweringId={loweringId} milestonesModal={LazyMilestonesModal} />;
}
