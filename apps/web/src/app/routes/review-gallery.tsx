import { useParams } from 'react-router';
import { GalleryScreen } from '../../features/review/gallery-screen';

/** /review_gallery/:loweringId (docs/screens.md#review-gallery). */
export function ReviewGalleryRoute() {
  const { loweringId = '' } = useParams();
  return <GalleryScreen key={loweringId} loweringId={loweringId} />;
}
