import { useParams } from 'wouter';
import { ReviewLoweringGate } from '../../features/review/components/review-lowering-gate';
import { ReplayScreen } from '../../features/review/replay-screen';

/** /review_replay/:loweringId (docs/screens.md#review-replay). */
export function ReviewReplayRoute() {
  const { loweringId = '' } = useParams();
  return (
    <ReviewLoweringGate key={loweringId} loweringId={loweringId}>
      <ReplayScreen key={loweringId} loweringId={loweringId} />
    </ReviewLoweringGate>
  );
}
