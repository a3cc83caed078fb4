import { useMemo } from 'react';
import type { LogEvent } from '@bathylog/shared';
import { completenessKeys, useLoweringCompleteness } from '../../../api/completeness';
import { useLiveInvalidation } from '../../../api/use-realtime';

/** Ticks closer than this (in % of the slider) are drawn as one. */
const resolution = 0.2;

/**
 * Where the slider's incomplete events lie, in % of its width: the slider runs over `events` by
 * index, so an event's tick sits at its index. Neighbouring ticks merge.
 */
export function lanePositions(events: readonly Pick<LogEvent, 'id'>[], incomplete: ReadonlySet<string>): number[] {
  if (events.length === 0 || incomplete.size === 0) return [];
  const last = Math.max(1, events.length - 1);
  const buckets: number[] = [];
  events.forEach((e, i) => {
    if (!incomplete.has(e.id)) return;
    const bucket = Math.floor(((i / last) * 100) / resolution);
    if (buckets[buckets.length - 1] !== bucket) buckets.push(bucket);
  });
  return buckets.map((b) => Math.round(b * resolution * 10) / 10);
}

/**
 * A thin lane over the Replay and Map slider marking the events that miss required aux data
 * (docs/completeness.md#the-replay-and-map-lane), with its text summary ("12 of 4,540 events
 * incomplete"). Nothing shows while the lowering requires no sources.
 */
export function CompletenessLane({ loweringId, events }: { loweringId: string; events: readonly LogEvent[] }) {
  const summary = useLoweringCompleteness(loweringId);
  useLiveInvalidation(['completeness'], [completenessKeys.lowering(loweringId)]);
  const incomplete = useMemo(() => new Set(summary.data?.incomplete_event_ids ?? []), [summary.data]);
  const ticks = useMemo(() => lanePositions(events, incomplete), [events, incomplete]);
  const data = summary.data;
  if (!data || data.required_sources.length === 0) return null;
  const text = `${data.events_incomplete.toLocaleString('en-US')} of ${data.events_total.toLocaleString('en-US')} events incomplete`;
  return (
    <div className="completeness-lane-wrap" data-testid="completeness-lane">
      <div className="small text-body-secondary text-center" data-testid="completeness-summary">
        {text}
        {data.events_incomplete > 0 && ` (missing or stale: ${data.required_sources.join(', ')})`}
      </div>
      <div className="completeness-lane" role="img" aria-label={`Incomplete events: ${text}`}>
        {ticks.map((at) => (
          <span key={at} className="completeness-tick" style={{ left: `${at}%` }} />
        ))}
      </div>
    </div>
  );
}
