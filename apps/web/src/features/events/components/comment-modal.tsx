import { useState, type FormEvent } from 'react';
import { Button, Form, Modal } from 'react-bootstrap';
import type { LogEvent } from '@bathylog/shared';
import { errorMessage } from '../../../api/client';
import { ErrorAlert } from '../../../components/alerts';
import { AttachPictures } from '../../../components/attach-pictures';
import { checkAttachments } from '../api/attachments';
import { queueEventAttachments } from '../api/event-queue';
import { eventComment, useSaveComment } from '../api/events';

function CommentForm({ event, onHide }: { event: LogEvent; onHide: () => void }) {
  const [text, setText] = useState(() => eventComment(event));
  const [pictures, setPictures] = useState<File[]>([]);
  const [queueError, setQueueError] = useState<string | null>(null);
  const save = useSaveComment();
  const pictureError = checkAttachments(pictures);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (pictureError) return;
    // An empty comment is stored as "" and reads as "no comment" (client-behaviour §6.5).
    save.mutate(
      { event, comment: text.trim() },
      {
        // Pictures go through the durable queue: they upload now, or when the link is back.
        onSuccess: () =>
          queueEventAttachments(event.id, pictures).then(onHide, (err: unknown) => setQueueError(errorMessage(err))),
      },
    );
  };

  return (
    <Form onSubmit={submit}>
      <Modal.Body>
        <ErrorAlert message={save.isError ? errorMessage(save.error) : queueError} />
        <Form.Group controlId="event-comment">
          <Form.Label className="visually-hidden">Comment</Form.Label>
          <Form.Control as="textarea" rows={4} value={text} onChange={(e) => setText(e.target.value)} autoFocus />
        </Form.Group>
        <div className="mt-2">
          <AttachPictures files={pictures} onChange={setPictures} error={pictureError} />
        </div>
      </Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" size="sm" onClick={onHide} disabled={save.isPending}>
          Cancel
        </Button>
        <Button variant="primary" size="sm" type="submit" disabled={save.isPending}>
          Submit
        </Button>
      </Modal.Footer>
    </Form>
  );
}

/** "Add/Update Comment": one textarea, prefilled and focused; Submit saves the event_comment option. */
export function CommentModal({ event, onHide }: { event: LogEvent | null; onHide: () => void }) {
  return (
    <Modal show={!!event} onHide={onHide} aria-labelledby="comment-modal-title">
      <Modal.Header closeButton closeVariant="white">
        <Modal.Title id="comment-modal-title" as="h5">
          Add/Update Comment
        </Modal.Title>
      </Modal.Header>
      {event && <CommentForm key={event.id} event={event} onHide={onHide} />}
    </Modal>
  );
}
