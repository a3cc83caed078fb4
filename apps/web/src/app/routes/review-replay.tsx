import { useParams } from 'react-router';
import { ReplayScreen } from '../../features/review/replay-screen';

/** /review_replay/:loweringId (docs/screens.md#review-replay). */
export function ReviewReplayRoute() {
  const { loweringId = '' } = useParams();
  return <ReplayScreen key={loweringId} loweringId={loweringId} />;
}
