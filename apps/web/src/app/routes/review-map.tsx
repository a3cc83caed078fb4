import { useParams } from 'react-router';
import { PlaceholderCard } from '../../components/placeholder-card';
import { useEntityNames } from '../../lib/settings';

/** /review_map/:loweringId — review of one lowering (seed 001); built in its own issue. */
export function ReviewMapRoute() {
  const { loweringId } = useParams();
  const names = useEntityNames();
  return (
    <PlaceholderCard
      title={`${names.Lowering} Review — Map`}
    >{`${names.Lowering} ${loweringId ?? ''}`}</PlaceholderCard>
  );
}
