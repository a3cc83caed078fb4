import { useParams } from 'react-router';
import { GalleryScreen } from '../../features/review/gallery-screen';

/** /review_gallery/:loweringId (seed 001 §2.7). */
export function ReviewGalleryRoute() {
  const { loweringId = '' } = useParams();
  return <GalleryScreen key={loweringId} loweringId={loweringId} />;
}
