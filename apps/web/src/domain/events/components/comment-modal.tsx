import { useState, type FormEvent } from 'react';
import { Button, Form, Modal } from 'react-bootstrap';
import { eventAttachmentsDataSource, mayAttachToEvent, thumbnailUrl, type LogEvent } from '@bathylog/shared';
import { useQueryClient } from '@tanstack/react-query';
import { errorMessage } from '../../../api/client';
import { ErrorAlert } from '../../../components/alerts';
import { ModalFooter, ModalHeader } from '../../../components/modal-parts';
import { AttachPictures } from '../../../components/attach-pictures';
import { useAuth } from '../../../lib/auth';
import { useSettings } from '../../../lib/settings';
import { checkAttachments, removeEventAttachment } from '../api/attachments';
import { queueEventAttachments } from '../api/event-queue';
import { eventComment, eventKeys, useEventExport, useSaveComment } from '../api/events';
import { imageCards } from '../lib/event-format';

/**
 * The pictures already attached to the event, each marked for removal (applied with Submit) by
 * its button, and unmarked by pressing it again.
 */
function AttachedPictures({
  event,
  dropped,
  onToggle,
}: {
  event: LogEvent;
  dropped: readonly string[];
  onToggle: (name: string) => void;
}) {
  const settings = useSettings();
  const exported = useEventExport(event.id);
  const attached = exported.data
    ? imageCards(
        exported.data.aux_data.filter((a) => a.data_source === eventAttachmentsDataSource),
        settings,
      )
    : [];
  if (attached.length === 0) return null;
  return (
    <ul className="list-unstyled small mb-2" aria-label="Attached pictures">
      {attached.map((image) => {
        const gone = dropped.includes(image.fileName);
        return (
          <li key={image.fileName} className="d-flex align-items-center gap-2 mb-1">
            <img src={thumbnailUrl(image.url)} alt="" width={48} className={gone ? 'opacity-25' : undefined} />
            <span className="text-truncate">{gone ? <del>{image.fileName}</del> : image.fileName}</span>
            <Button
              variant="link"
              size="sm"
              className="p-0 ms-auto text-nowrap"
              aria-pressed={gone}
              aria-label={gone ? `Keep picture ${image.fileName}` : `Remove picture ${image.fileName}`}
              onClick={() => onToggle(image.fileName)}
            >
              {gone ? 'Keep' : <i className="bi bi-trash text-danger" aria-hidden="true" />}
            </Button>
          </li>
        );
      })}
    </ul>
  );
}

function CommentForm({ event, onHide }: { event: LogEvent; onHide: () => void }) {
  const [text, setText] = useState(() => eventComment(event));
  const [pictures, setPictures] = useState<File[]>([]);
  const [queueError, setQueueError] = useState<string | null>(null);
  const [dropped, setDropped] = useState<string[]>([]);
  const auth = useAuth();
  const queryClient = useQueryClient();
  const exported = useEventExport(event.id);
  const attachedCount = exported.data
    ? exported.data.aux_data
        .filter((a) => a.data_source === eventAttachmentsDataSource)
        .reduce((n, a) => n + a.data_array.filter((i) => i.data_name === 'filename').length, 0)
    : 0;
  const save = useSaveComment();
  const pictureError = checkAttachments(pictures, attachedCount - dropped.length);
  const mayAttach = !!auth.profile && mayAttachToEvent(auth.profile, event);

  /** Removals first (they free places), then the new pictures through the durable queue. */
  const applyPictures = async () => {
    for (const name of dropped) await removeEventAttachment(name);
    if (dropped.length > 0) await queryClient.invalidateQueries({ queryKey: eventKeys.all });
    await queueEventAttachments(event.id, pictures);
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (pictureError) return;
    // An empty comment is stored as "" and reads as "no comment" (docs/screens.md#comments).
    save.mutate(
      { event, comment: text.trim() },
      {
        // Pictures go through the durable queue: they upload now, or when the link is back.
        onSuccess: () => applyPictures().then(onHide, (err: unknown) => setQueueError(errorMessage(err))),
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
        {mayAttach && (
          <div className="mt-2">
            <AttachedPictures
              event={event}
              dropped={dropped}
              onToggle={(name) => setDropped((d) => (d.includes(name) ? d.filter((n) => n !== name) : [...d, name]))}
            />
            <AttachPictures files={pictures} onChange={setPictures} error={pictureError} />
          </div>
        )}
      </Modal.Body>
      <ModalFooter
        onClose={onHide}
        closeLabel="Cancel"
        closeDisabled={save.isPending}
        action={{ label: 'Submit', disabled: save.isPending }}
      />
    </Form>
  );
}

/** "Add/Update Comment": one textarea, prefilled and focused; Submit saves the event_comment option. */
export function CommentModal({ event, onHide }: { event: LogEvent | null; onHide: () => void }) {
  return (
    <Modal show={!!event} onHide={onHide} aria-labelledby="comment-modal-title">
      <ModalHeader id="comment-modal-title">Add/Update Comment</ModalHeader>
      {event && <CommentForm key={event.id} event={event} onHide={onHide} />}
    </Modal>
  );
}
