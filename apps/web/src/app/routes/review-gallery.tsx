import { useParams } from 'wouter';
import { ReviewLoweringGate } from '../../features/review/components/review-lowering-gate';
import { GalleryScreen } from '../../features/review/gallery-screen';

/** /review_gallery/:loweringId (docs/screens.md#review-gallery). */
export function ReviewGalleryRoute() {
  const { loweringId = '' } = useParams();
  return (
    <ReviewLoweringGate key={loweringId} loweringId={loweringId}>
      <GalleryScreen key={loweringId} loweringId={loweringId} />
    </ReviewLoweringGate>
  );
}
