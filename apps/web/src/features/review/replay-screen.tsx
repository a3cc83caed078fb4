import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { Button, ButtonGroup, Card, Collapse } from 'react-bootstrap';
import { errorMessage } from '../../api/client';
import { ErrorAlert } from '../../components/alerts';
import { EmptyText, LoadingText, statusTexts } from '../../components/status-text';
import { useSettings } from '../../lib/settings';
import { DataCards } from '../../domain/events/components/data-cards';
import { missingImages } from '../../domain/events/lib/event-format';
import { EventHeaderCard } from './components/event-header-card';
import { ReviewBreadcrumb } from './components/review-breadcrumb';
import { ReviewEvents } from './components/review-events';
import { ReviewSlider } from './components/review-slider';
import { CompletenessLane } from './components/completeness-lane';
import { ReplayVideo } from './components/replay-video';
import { VideoLinks } from '../../domain/video/video-links';
import { useArrowKeys } from './hooks/use-arrow-keys';
import { reviewPageSize, useReview } from './hooks/use-review';
import { replayIntervals, replayReducer, type ReplayAction, type ReplayMode } from './lib/replay';
import './review.css';

// Leaflet loads only when someone opens the map card.
const ReplayMapCard = lazy(() => import('./components/replay-map').then((m) => ({ default: m.ReplayMap })));

const buttons: Array<{ action: ReplayAction['type']; label: string; icon: string }> = [
  { action: 'first', label: 'To first event', icon: 'bi-skip-start-fill' },
  { action: 'fastReverse', label: 'Fast reverse', icon: 'bi-rewind-fill' },
  { action: 'togglePlay', label: 'Play', icon: 'bi-play-fill' },
  { action: 'fastForward', label: 'Fast forward', icon: 'bi-fast-forward-fill' },
  { action: 'last', label: 'To last event', icon: 'bi-skip-end-fill' },
];

const modeText: Record<ReplayMode, string> = {
  paused: 'Paused',
  playing: 'Playing',
  ff: 'Fast forward',
  fr: 'Fast reverse',
};

/**
 * /review_replay/{id} (docs/screens.md#review-replay): the selected event's header
 * and data cards (images as thumbnails, aux data, options, free text, comment), the play controls
 * over the filtered events, a collapsible map card following the replay, and the event list with
 * its filter. The state machine is `replayReducer`; this screen only runs its timer.
 */
export function ReplayScreen({ loweringId }: { loweringId: string }) {
  const review = useReview(loweringId);
  const settings = useSettings();
  const [mode, setMode] = useState<ReplayMode>('paused');
  const [mapOpen, setMapOpen] = useState(false);
  const [videoOpen, setVideoOpen] = useState(false);
  const { events, index, selectIndex } = review;
  const count = events.length;

  const stateRef = useRef({ mode, index, count });
  stateRef.current = { mode, index, count };
  const dispatch = useCallback(
    (action: ReplayAction) => {
      const next = replayReducer(stateRef.current, action);
      setMode(next.mode);
      if (next.index !== stateRef.current.index) selectIndex(next.index);
    },
    [selectIndex],
  );
  const pause = useCallback(() => dispatch({ type: 'pause' }), [dispatch]);

  // One step per interval while playing or moving fast; each step re-arms the timer.
  useEffect(() => {
    if (mode === 'paused') return;
    const timer = window.setTimeout(() => dispatch({ type: 'tick' }), replayIntervals[mode]);
    return () => window.clearTimeout(timer);
  }, [mode, index, dispatch]);

  useArrowKeys({
    up: () => dispatch({ type: 'select', index: index - 1 }),
    down: () => dispatch({ type: 'select', index: index + 1 }),
    left: () => dispatch({ type: 'select', index: (review.page - 2) * reviewPageSize }),
    right: () => dispatch({ type: 'select', index: review.page * reviewPageSize }),
  });

  const loading = review.listPending || review.lowering.isPending;
  const lowering = review.lowering.data;
  const moving = mode !== 'paused';

  return (
    <div className="review-screen" data-testid="review-replay">
      <ReviewBreadcrumb loweringId={loweringId} mode="replay" />
      <ErrorAlert message={review.lowering.isError ? errorMessage(review.lowering.error) : null} />
      <EventHeaderCard event={review.selected} loading={loading} />
      <div className="mb-2" data-testid="replay-data-cards">
        {review.selected &&
          (review.exported ? (
            <>
              {missingImages(review.exported.aux_data, settings) && (
                <EmptyText className="small mb-1">{statusTexts.noImages}</EmptyText>
              )}
              <DataCards event={review.exported} thumbnails onImageOpen={pause} />
              <VideoLinks links={review.exported.video} className="small mt-1" />
            </>
          ) : review.exportedQuery.isError ? (
            <ErrorAlert message={errorMessage(review.exportedQuery.error)} />
          ) : (
            <LoadingText text={statusTexts.loading} />
          ))}
      </div>
      <ReviewSlider
        events={events}
        index={index}
        startTs={lowering?.start_ts}
        stopTs={lowering?.stop_ts}
        lane={<CompletenessLane loweringId={loweringId} events={events} />}
        disabled={loading || !review.complete}
        onMove={pause}
        onChange={(i) => dispatch({ type: 'select', index: i })}
      >
        <ButtonGroup aria-label="Replay controls" data-testid="replay-buttons">
          {buttons.map((b) => {
            const isPlay = b.action === 'togglePlay';
            const label = isPlay && moving ? 'Pause' : b.label;
            const icon = isPlay && moving ? 'bi-pause-fill' : b.icon;
            return (
              <Button
                key={b.action}
                variant="link"
                className="replay-button"
                disabled={loading || !review.complete || count === 0}
                aria-label={label}
                title={label}
                onClick={() => dispatch({ type: b.action } as ReplayAction)}
              >
                <i className={`bi ${icon}`} aria-hidden="true" />
              </Button>
            );
          })}
        </ButtonGroup>
        <span className="visually-hidden" role="status" data-testid="replay-state">
          {modeText[mode]}
        </span>
      </ReviewSlider>
      <Card className="mb-2" data-testid="replay-video-card">
        <Card.Header className="py-1">
          <Button
            variant="link"
            size="sm"
            className="p-0 text-decoration-none"
            aria-expanded={videoOpen}
            aria-controls="replay-video-body"
            onClick={() => setVideoOpen((v) => !v)}
          >
            <i className={`bi ${videoOpen ? 'bi-chevron-down' : 'bi-chevron-right'} me-1`} aria-hidden="true" />
            Video
          </Button>
        </Card.Header>
        <Collapse in={videoOpen} mountOnEnter>
          <div id="replay-video-body">
            <Card.Body className="py-2">
              <ReplayVideo
                loweringId={loweringId}
                events={events}
                index={index}
                onSelect={(i) => dispatch({ type: 'select', index: i })}
              />
            </Card.Body>
          </div>
        </Collapse>
      </Card>
      <Card className="mb-2" data-testid="replay-map-card">
        <Card.Header className="py-1">
          <Button
            variant="link"
            size="sm"
            className="p-0 text-decoration-none"
            aria-expanded={mapOpen}
            aria-controls="replay-map-body"
            onClick={() => setMapOpen((v) => !v)}
          >
            <i className={`bi ${mapOpen ? 'bi-chevron-down' : 'bi-chevron-right'} me-1`} aria-hidden="true" />
            Map View
          </Button>
        </Card.Header>
        <Collapse in={mapOpen} mountOnEnter>
          <div id="replay-map-body">
            <Suspense fallback={<LoadingText text={statusTexts.loading} />}>
              <ReplayMapCard review={review} />
            </Suspense>
          </div>
        </Collapse>
      </Card>
      <ReviewEvents review={review} onUserAction={pause} />
    </div>
  );
}
