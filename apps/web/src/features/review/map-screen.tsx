import { useMemo, useState } from 'react';
import { Button, Card } from 'react-bootstrap';
import { useQueryClient } from '@tanstack/react-query';
import { capabilityRoles } from '@bathylog/shared';
import { errorMessage } from '../../api/client';
import { ErrorAlert } from '../../components/alerts';
import { LoadingText, statusTexts } from '../../components/status-text';
import { DiveMap, type DiveMapMarker } from '../../components/maps/dive-map';
import { pageSlice } from '../../components/pagination';
import { useAuth } from '../../lib/auth';
import { useSettings } from '../../lib/settings';
import type { MilestonesModalSlot } from '../../domain/lowerings/milestones-slot';
import { reviewKeys, useReviewTrack } from './api/review';
import { EventHeaderCard } from './components/event-header-card';
import { ReviewBreadcrumb } from './components/review-breadcrumb';
import { ReviewEvents } from './components/review-events';
import { ReviewSlider } from './components/review-slider';
import { CompletenessLane } from './components/completeness-lane';
import { useArrowKeys } from './hooks/use-arrow-keys';
import { reviewPageSize, useReview } from './hooks/use-review';
import { eventPosition } from './lib/position';
import './review.css';

/**
 * /review_map/{id} (docs/screens.md#review-map): the selected event's header, the 480 px map (track
 * from the first position source, start/end dots, the pin "You are here! :-)", markers of the
 * events on the current list page), the slider over the filtered events, and the list with View
 * Details and the filter. Admins and cruise managers edit the milestones
 * (docs/screens.md#milestones-editor) from here.
 */
export function MapScreen({
  loweringId,
  milestonesModal: MilestonesModal,
}: {
  loweringId: string;
  /** The milestones/stats editor (loaded when first opened), filled in by the route. */
  milestonesModal: MilestonesModalSlot;
}) {
  const review = useReview(loweringId);
  const settings = useSettings();
  const auth = useAuth();
  const queryClient = useQueryClient();
  const [milestonesOpen, setMilestonesOpen] = useState(false);
  const { events, index, selectIndex } = review;
  // The track (every nav fix of the dive) is asked for once the first events are there, so the
  // server answers the small requests first.
  const track = useReviewTrack(loweringId, !review.listPending);

  useArrowKeys({
    up: () => selectIndex(index - 1),
    down: () => selectIndex(index + 1),
    left: () => selectIndex((review.page - 2) * reviewPageSize),
    right: () => selectIndex(review.page * reviewPageSize),
  });

  const sources = track.data?.source ? [track.data.source] : settings.positionDataSources;
  const pin = review.exported ? eventPosition(review.exported.aux_data, sources) : null;
  const points = track.data?.points;
  const pageEvents = useMemo(() => pageSlice(events, review.page, reviewPageSize), [events, review.page]);
  const markers = useMemo<DiveMapMarker[]>(() => {
    if (!points) return [];
    const byId = new Map(points.map((p) => [p.eventId, p]));
    return pageEvents.flatMap((e) => {
      const p = byId.get(e.id);
      return p ? [{ id: e.id, lat: p.lat, lon: p.lon, title: `${e.ts} - ${e.event_value}` }] : [];
    });
  }, [points, pageEvents]);

  const lowering = review.lowering.data;
  const loading = review.listPending || review.lowering.isPending;
  return (
    <div className="review-screen" data-testid="review-map">
      <ReviewBreadcrumb loweringId={loweringId} mode="map" />
      <ErrorAlert message={review.lowering.isError ? errorMessage(review.lowering.error) : null} />
      <ErrorAlert message={track.isError ? errorMessage(track.error) : null} />
      <EventHeaderCard event={review.selected} loading={loading} />
      <Card className="mb-2" data-testid="review-map-card">
        {/* Admins and cruise managers edit the milestones and stats of any lowering they may
            open: the server applies the same rule to the save (docs/roles-and-access.md#cruise-managers). */}
        {auth.hasRole(...capabilityRoles.cruiseManagement) && (
          <Card.Header className="py-1 d-flex justify-content-end">
            <Button variant="link" size="sm" className="p-0" onClick={() => setMilestonesOpen(true)}>
              <i className="bi bi-flag-fill me-1" aria-hidden="true" />
              Milestones
            </Button>
          </Card.Header>
        )}
        {track.isPending ? (
          // The map mounts on its track: one view and one drawing instead of two.
          <div style={{ height: 480 }} className="d-flex align-items-center justify-content-center">
            <LoadingText text={statusTexts.loading} />
          </div>
        ) : (
          <DiveMap
            height={480}
            track={points}
            pin={pin}
            markers={markers}
            selectedMarkerId={review.selected?.id ?? null}
            onMarkerClick={(id) => selectIndex(events.findIndex((e) => e.id === id))}
            label="Review map"
          />
        )}
      </Card>
      <ReviewSlider
        events={events}
        index={index}
        startTs={lowering?.start_ts}
        stopTs={lowering?.stop_ts}
        lane={<CompletenessLane loweringId={loweringId} events={events} />}
        disabled={loading || !review.complete}
        onChange={selectIndex}
      />
      <ReviewEvents review={review} viewDetails />
      {milestonesOpen && (
        <MilestonesModal
          loweringId={loweringId}
          show={milestonesOpen}
          onHide={() => setMilestonesOpen(false)}
          onSaved={() => void queryClient.invalidateQueries({ queryKey: reviewKeys.lowering(loweringId) })}
        />
      )}
    </div>
  );
}
