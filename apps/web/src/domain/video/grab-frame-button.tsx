import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Button } from 'react-bootstrap';
import { errorMessage } from '../../api/client';
import { ErrorAlert } from '../../components/alerts';
import { eventKeys } from '../events/api/events';
import { grabFrame } from './video-api';

/**
 * One action for a frame of a past event (docs/video.md#frame-grabs): the server grabs each
 * camera's exact frame from its recording and stores it as the event's frame grab; the event is
 * read again, so its data cards show the new image.
 */
export function GrabFrameButton({ eventId }: { eventId: string }) {
  const client = useQueryClient();
  const grab = useMutation({
    mutationFn: () => grabFrame(eventId),
    onSuccess: () => client.invalidateQueries({ queryKey: eventKeys.export(eventId) }),
  });
  const result = grab.data;
  return (
    <div className="mb-2" data-testid="grab-frame">
      <Button size="sm" variant="outline-primary" disabled={grab.isPending} onClick={() => grab.mutate()}>
        {grab.isPending ? 'Grabbing frame…' : 'Grab frame from video'}
      </Button>
      {result && (
        <span className="small ms-2" role="status">
          {result.state === 'grabbed'
            ? `Frame grabbed: ${result.frames.map((f) => f.camera).join(', ')}`
            : result.state === 'no_recording'
              ? 'No recording at this event'
              : `No frame: ${result.message ?? ''}`}
        </span>
      )}
      <ErrorAlert message={grab.isError ? errorMessage(grab.error) : null} />
    </div>
  );
}
