import { useSettings } from '../../lib/settings';

/** Events this recent open the cameras' live streams; older ones their recordings (docs/video.md#live-video). */
export const liveVideoWindowMs = 5 * 60 * 1000;

/**
 * The console history's video action for one event: for a recent event, a link per camera to its
 * live stream (the addresses come from the runtime settings and never carry credentials); for an
 * older one, a button opening the event's details, which link each camera's recording at the
 * event. Nothing when no live stream is configured and the event is recent.
 */
export function VideoAtEvent({
  event,
  now,
  onRecorded,
}: {
  event: { id: string; ts: string };
  now: number;
  onRecorded: () => void;
}) {
  const streams = Object.entries(useSettings().liveVideoStreams ?? {});
  const recent = now - Date.parse(event.ts) < liveVideoWindowMs;
  if (recent) {
    return (
      <>
        {streams.map(([camera, url]) => (
          <a
            key={camera}
            className="event-icon"
            href={url}
            target="_blank"
            rel="noopener noreferrer"
            title={`Open live video: ${camera}`}
            aria-label={`Open live video: ${camera}`}
          >
            <i className="bi bi-broadcast" aria-hidden="true" />
          </a>
        ))}
      </>
    );
  }
  return (
    <button
      type="button"
      className="event-icon"
      title="Open recorded video"
      aria-label="Open recorded video"
      onClick={onRecorded}
    >
      <i className="bi bi-camera-video" aria-hidden="true" />
    </button>
  );
}
