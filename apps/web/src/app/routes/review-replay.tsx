import { useParams } from 'react-router';
import { ReplayScreen } from '../../features/review/replay-screen';

/** /review_replay/:loweringId (seed 001 §2.6). */
export function ReviewReplayRoute() {
  const { loweringId = '' } = useParams();
  return <ReplayScreen key={loweringId} loweringId={loweringId} />;
}
