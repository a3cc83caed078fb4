import { useEffect, useMemo, useRef, useState } from 'react';
import { Alert, Button, Form, ProgressBar } from 'react-bootstrap';
import type { LogEvent, Recording } from '@bathylog/shared';
import { errorMessage } from '../../../api/client';
import { ErrorAlert } from '../../../components/alerts';
import { EmptyText, LoadingText, statusTexts } from '../../../components/status-text';
import { useAuth } from '../../../lib/auth';
import { LazyVideoPlayer } from '../../../domain/video/lazy-video-player';
import type { PlayerPosition } from '../../../domain/video/player/video-player';
import {
  useCameraOffsets,
  useFramegrabJob,
  useRecordings,
  useStartFramegrabJob,
} from '../../../domain/video/video-api';
import { cameraTimelines, formatOffset, mediaUrl, momentOf, nextOn, resolveOn } from '../../../domain/video/video-time';

/** The index of the last event at or before `ts` (events oldest first), or -1. */
function lastAtOrBefore(events: readonly LogEvent[], ts: number): number {
  let lo = 0;
  let hi = events.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (Date.parse(events[mid]!.ts) <= ts) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

const playsNatively = (r: Recording) => r.copies.some((c) => c.role === 'proxy' || c.role === 'master');

/**
 * The replay's video (docs/video.md#playback): one camera's recording at the selected event,
 * seeking when the replay moves and moving the replay to the event on screen while the video
 * plays. Back-to-back segments play on; a moment no recording holds says so.
 */
export function ReplayVideo({
  loweringId,
  events,
  index,
  onSelect,
}: {
  loweringId: string;
  events: readonly LogEvent[];
  index: number;
  onSelect: (index: number) => void;
}) {
  const recordings = useRecordings(loweringId);
  const offsets = useCameraOffsets(loweringId);
  const lines = useMemo(
    () => cameraTimelines(recordings.data ?? [], offsets.data ?? []),
    [recordings.data, offsets.data],
  );
  const [camera, setCamera] = useState<string | null>(null);
  const line = lines.find((l) => l.camera === camera) ?? lines[0] ?? null;
  const [current, setCurrent] = useState<Recording | null>(null);
  const [position, setPosition] = useState<PlayerPosition | null>(null);
  // Set while the video moves the replay, so the replay's move does not seek the video back.
  const movedByVideo = useRef(false);
  const selected = events[index] ?? null;
  const at = selected && line ? resolveOn(line, Date.parse(selected.ts)) : null;

  useEffect(() => {
    if (movedByVideo.current) {
      movedByVideo.current = false;
      return;
    }
    if (!at) return;
    setCurrent(at.recording);
    setPosition({ seconds: at.offset_ms / 1000 });
    // The resolved recording and offset change with the event and the camera.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [selected?.id, line?.camera, at?.recording.id, at?.offset_ms]);

  if (recordings.isError) return <ErrorAlert message={errorMessage(recordings.error)} />;
  if (recordings.isPending || offsets.isPending) return <LoadingText text={statusTexts.loading} />;
  if (lines.length === 0) return <EmptyText className="mb-0">No recordings for this dive.</EmptyText>;

  return (
    <div data-testid="replay-video">
      <div className="d-flex flex-wrap gap-2 align-items-center mb-2">
        {lines.length > 1 && (
          <Form.Select
            size="sm"
            className="w-auto"
            aria-label="Camera"
            value={line?.camera}
            onChange={(e) => setCamera(e.target.value)}
          >
            {lines.map((l) => (
              <option key={l.camera}>{l.camera}</option>
            ))}
          </Form.Select>
        )}
        <span className="small" data-testid="video-position">
          {line?.camera}
          {at ? ` at ${formatOffset(at.offset_ms)}` : ': no recording at this event'}
        </span>
      </div>
      {current && line && (
        <LazyVideoPlayer
          src={playsNatively(current) ? mediaUrl(current.id) : `${mediaUrl(current.id)}?role=hls`}
          hls={!playsNatively(current)}
          position={position}
          label={`Video of ${line.camera}`}
          onPlayingAt={(seconds) => {
            const moment = momentOf(line, current.id, seconds);
            if (moment === null) return;
            const i = lastAtOrBefore(events, moment);
            if (i >= 0 && i !== index) {
              movedByVideo.current = true;
              onSelect(i);
            }
          }}
          onEnded={() => {
            const next = nextOn(line, current.id);
            if (next) {
              setCurrent(next);
              setPosition({ seconds: 0 });
            }
          }}
        />
      )}
      <FramegrabJob loweringId={loweringId} />
    </div>
  );
}

/** Frames for every event of the dive without one: a job on the server, its progress polled. */
function FramegrabJob({ loweringId }: { loweringId: string }) {
  const mayRun = useAuth().hasRole('admin', 'cruise_manager');
  const job = useFramegrabJob(loweringId, mayRun);
  const start = useStartFramegrabJob(loweringId);
  if (!mayRun) return null;
  const data = job.data;
  const running = data?.state === 'running';
  const failed = data?.results.filter((r) => r.state === 'failed') ?? [];
  return (
    <div className="mt-2" data-testid="framegrab-job">
      <Button size="sm" variant="outline-primary" disabled={running || start.isPending} onClick={() => start.mutate()}>
        Grab frames for events without one
      </Button>
      <ErrorAlert message={start.isError ? errorMessage(start.error) : null} />
      {data && (
        <div className="mt-2">
          <ProgressBar
            now={data.total === 0 ? 100 : (100 * data.done) / data.total}
            label={`${data.done} / ${data.total}`}
            aria-label="Frame grabs done"
            animated={running}
          />
          <div className="small mt-1" role="status">
            {running ? 'Grabbing frames: ' : 'Frames: '}
            {data.grabbed} grabbed, {data.no_recording} without a recording, {data.failed} failed
          </div>
          {failed.length > 0 && (
            <Alert variant="warning" className="small mt-1 mb-0">
              {failed.slice(0, 5).map((r) => (
                <div key={r.event_id}>
                  {r.event_id}: {r.message}
                </div>
              ))}
            </Alert>
          )}
        </div>
      )}
    </div>
  );
}
