import { useParams } from 'react-router';
import { PlaceholderCard } from '../../components/placeholder-card';
import { useEntityNames } from '../../lib/settings';

/** /review_gallery/:loweringId — review of one lowering (seed 001); built in its own issue. */
export function ReviewGalleryRoute() {
  const { loweringId } = useParams();
  const names = useEntityNames();
  return (
    <PlaceholderCard
      title={`${names.Lowering} Review — Gallery`}
    >{`${names.Lowering} ${loweringId ?? ''}`}</PlaceholderCard>
  );
}
