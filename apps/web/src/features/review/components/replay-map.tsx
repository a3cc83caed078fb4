import { DiveMap } from '../../../components/maps/dive-map';
import { useSettings } from '../../../lib/settings';
import { useReviewTrack } from '../api/review';
import type { Review } from '../hooks/use-review';
import { eventPosition } from '../lib/position';

/**
 * The replay's "Map View" card body (as in the Jason/Alvin Sealog client; docs/screens.md#review-replay):
 * the track and the current position, following the replay.
 */
export function ReplayMap({ review }: { review: Review }) {
  const settings = useSettings();
  const track = useReviewTrack(review.loweringId);
  const sources = track.data?.source ? [track.data.source] : settings.positionDataSources;
  const pin = review.exported ? eventPosition(review.exported.aux_data, sources) : null;
  const popup = review.selected ? `${review.selected.ts} - ${review.selected.event_value}` : undefined;
  return <DiveMap height={300} track={track.data?.points} pin={pin} pinPopup={popup} followPin label="Replay map" />;
}
