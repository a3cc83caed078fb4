import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Form } from 'react-bootstrap';
import { formatClockDuration, type LogEvent } from '@bathylog/shared';

/** Slider changes apply this long after the last move (docs/screens.md#replay-timing). */
export const sliderDelayMs = 250;

/**
 * The controls card of Replay and Map: `00:00:00` left, the lowering's duration right ("d days
 * hh:mm:ss", docs/screens.md#times-and-durations), buttons in the middle (replay), and a full-width
 * slider over the filtered events whose value text is the time elapsed since the lowering's start.
 * A move calls `onMove` at once (the replay pauses) and `onChange` after 250 ms of rest.
 */
export function ReviewSlider({
  events,
  index,
  startTs,
  stopTs,
  disabled,
  onMove,
  onChange,
  children,
  lane,
}: {
  events: readonly LogEvent[];
  index: number;
  startTs: string | undefined;
  stopTs: string | undefined;
  disabled?: boolean;
  onMove?: () => void;
  onChange: (index: number) => void;
  children?: ReactNode;
  /** Drawn right above the slider (the completeness lane). */
  lane?: ReactNode;
}) {
  const [dragging, setDragging] = useState<number | null>(null);
  const timer = useRef<number | undefined>(undefined);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  useEffect(() => () => window.clearTimeout(timer.current), []);

  const start = startTs ? Date.parse(startTs) : NaN;
  const duration = startTs && stopTs ? formatClockDuration(Date.parse(stopTs) - start) : '';
  const shown = dragging ?? index;
  const event = events[shown];
  const elapsed = event && Number.isFinite(start) ? formatClockDuration(Date.parse(event.ts) - start) : '';

  const move = (value: number) => {
    onMove?.();
    setDragging(value);
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => {
      setDragging(null);
      onChangeRef.current(value);
    }, sliderDelayMs);
  };

  return (
    <div className="review-controls card mb-2" data-testid="review-controls">
      <div className="card-body py-2">
        <div className="d-flex justify-content-between align-items-center">
          <span className="text-primary" data-testid="replay-start-label">
            00:00:00
          </span>
          <span>{children}</span>
          <span className="text-primary" data-testid="replay-duration-label">
            {duration}
          </span>
        </div>
        {lane}
        <Form.Range
          className="review-slider"
          aria-label="Event"
          min={0}
          max={Math.max(0, events.length - 1)}
          step={1}
          value={shown}
          disabled={disabled || events.length === 0}
          aria-valuetext={elapsed ? `${elapsed} since start: ${event?.event_value ?? ''}` : undefined}
          title={elapsed}
          onChange={(e) => move(Number(e.target.value))}
        />
        {elapsed && (
          <div className="small text-center" data-testid="slider-elapsed">
            Elapsed: {elapsed}
          </div>
        )}
      </div>
    </div>
  );
}
