import { useParams } from 'react-router';
import { MapScreen } from '../../features/review/map-screen';
import { LazyMilestonesModal } from '../milestones-modal-slot';

/** /review_map/:loweringId (seed 001 §2.5). */
export function ReviewMapRoute() {
  const { loweringId = '' } = useParams();
  return <MapScreen key={loweringId} loweringId={loweringId} milestonesModal={LazyMilestonesModal} />;
}
