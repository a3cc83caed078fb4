import { useState } from 'react';
import { Card, Col, Row } from 'react-bootstrap';
import { eventAttachmentsDataSource, mayAttachToEvent, thumbnailUrl } from '@bathylog/shared';
import { errorMessage } from '../../../api/client';
import { ErrorAlert } from '../../../components/alerts';
import { ConfirmModal } from '../../../components/confirm-modal';
import { useAuth } from '../../../lib/auth';
import { useSettings } from '../../../lib/settings';
import { useRemoveAttachment } from '../api/attachments';
import { eventComment, type ExportedEvent } from '../api/events';
import { auxDataCards, imageCards, optionRows, type ImageCard } from '../lib/event-format';
import { ImagePreviewModal } from './image-preview-modal';
import '../events.css';

/** One frame grab; a broken image shows a placeholder and is no longer clickable (docs/screens.md#data-cards). */
function ImageDataCard({
  image,
  columns,
  onOpen,
  thumbnail,
  onRemove,
}: {
  image: ImageCard;
  columns: ColumnProps;
  onOpen: (image: ImageCard) => void;
  thumbnail?: boolean | undefined;
  /** An attached picture the user may remove: its remove button calls this. */
  onRemove?: ((image: ImageCard) => void) | undefined;
}) {
  const [broken, setBroken] = useState(false);
  return (
    <Col {...columns} className="mb-2">
      <Card className="data-card h-100">
        <Card.Body className="p-1">
          {broken ? (
            <div className="data-card-image broken">
              <div className="image-missing">No image</div>
            </div>
          ) : (
            <button
              type="button"
              className="data-card-image border-0 p-0 bg-transparent w-100"
              onClick={() => onOpen(image)}
              title={`Preview ${image.fileName}`}
            >
              <img
                src={thumbnail ? thumbnailUrl(image.url) : image.url}
                alt={image.caption}
                loading="lazy"
                onError={() => setBroken(true)}
              />
            </button>
          )}
          <div className="text-center small mt-1">
            {image.caption}
            {onRemove && (
              <button
                type="button"
                className="btn btn-link btn-sm p-0 ms-2 lh-1 text-danger"
                title="Remove this picture"
                aria-label={`Remove picture ${image.fileName}`}
                onClick={() => onRemove(image)}
              >
                <i className="bi bi-trash" aria-hidden="true" />
              </button>
            )}
          </div>
        </Card.Body>
      </Card>
    </Col>
  );
}

interface ColumnProps {
  sm: number;
  md: number;
  lg: number;
}

function RowsCard({
  title,
  rows,
  columns,
  testId,
  measures,
}: {
  title: string;
  rows: Array<{ name: string; value: string }>;
  columns: ColumnProps;
  testId?: string;
  /** Values are measurements ("23.549468 ddeg"): kept on one line with their unit. */
  measures?: boolean;
}) {
  return (
    <Col {...columns} className="mb-2">
      <Card className="data-card h-100" data-testid={testId}>
        <Card.Header>{title}</Card.Header>
        <Card.Body>
          {rows.map((row, i) => (
            <div className={`data-card-row${measures ? ' data-card-measure' : ''}`} key={`${row.name}-${i}`}>
              <span>{row.name}:</span>
              <span>{row.value}</span>
            </div>
          ))}
        </Card.Body>
      </Card>
    </Col>
  );
}

function TextCard({
  title,
  text,
  columns,
  testId,
}: {
  title: string;
  text: string;
  columns: ColumnProps;
  testId: string;
}) {
  return (
    <Col {...columns} className="mb-2">
      <Card className="data-card h-100" data-testid={testId}>
        <Card.Header>{title}</Card.Header>
        <Card.Body className="pre-wrap">{text}</Card.Body>
      </Card>
    </Col>
  );
}

/** Whether the event has anything for the card row (the newest-event card hides an empty body). */
export function hasDataCards(event: ExportedEvent, settings: Parameters<typeof auxDataCards>[1]): boolean {
  return (
    imageCards(event.aux_data, settings).length > 0 ||
    auxDataCards(event.aux_data, settings).length > 0 ||
    optionRows(event).length > 0 ||
    event.event_free_text !== '' ||
    eventComment(event) !== ''
  );
}

/**
 * The row of cards under an event (docs/screens.md#data-cards): images, aux data (sorted, renamed and
 * filtered per configuration), Event Options, Free-form Text (when there is text), Comment (when
 * there is one). Images open the preview.
 */
export function DataCards({
  event,
  layout = 'console',
  thumbnails,
  onImageOpen,
  removableAttachments = false,
}: {
  event: ExportedEvent;
  layout?: 'console' | 'modal';
  /** Offer removing attached pictures (to the event's author, admins and event managers). */
  removableAttachments?: boolean;
  /** Show server thumbnails in the cards (the preview still opens the original). */
  thumbnails?: boolean;
  /** Called when an image preview opens (the replay pauses). */
  onImageOpen?: () => void;
}) {
  const settings = useSettings();
  const auth = useAuth();
  const remove = useRemoveAttachment();
  const [removing, setRemoving] = useState<ImageCard | null>(null);
  const mayRemove = removableAttachments && !!auth.profile && mayAttachToEvent(auth.profile, event);
  const [preview, setPreviewState] = useState<ImageCard | null>(null);
  const setPreview = (image: ImageCard | null) => {
    if (image) onImageOpen?.();
    setPreviewState(image);
  };
  // The details modal is only 500 px wide below the large breakpoint: two cards a row there, so
  // a measurement and its unit fit on one line.
  const columns: ColumnProps = layout === 'modal' ? { sm: 6, md: 6, lg: 4 } : { sm: 6, md: 4, lg: 3 };
  const images = imageCards(event.aux_data, settings);
  const aux = auxDataCards(event.aux_data, settings);
  const options = optionRows(event);
  const comment = eventComment(event);
  return (
    <>
      <ErrorAlert message={remove.isError ? errorMessage(remove.error) : null} onClose={() => remove.reset()} />
      <Row className="g-2">
        {images.map((image, i) => (
          <ImageDataCard
            key={`${image.url}-${i}`}
            image={image}
            columns={columns}
            onOpen={setPreview}
            thumbnail={thumbnails}
            onRemove={mayRemove && image.source === eventAttachmentsDataSource ? setRemoving : undefined}
          />
        ))}
        {aux.map((card) => (
          <RowsCard
            key={card.source}
            title={card.title}
            rows={card.rows}
            columns={columns}
            testId="aux-data-card"
            measures
          />
        ))}
        {options.length > 0 && (
          <RowsCard title="Event Options" rows={options} columns={columns} testId="event-options-card" />
        )}
        {event.event_free_text && (
          <TextCard title="Free-form Text" text={event.event_free_text} columns={columns} testId="free-text-card" />
        )}
        {comment && <TextCard title="Comment" text={comment} columns={columns} testId="comment-card" />}
      </Row>
      <ImagePreviewModal image={preview} onHide={() => setPreview(null)} />
      <ConfirmModal
        show={removing !== null}
        title="Confirm Removal"
        body={`Are you sure you want to remove the picture ${removing?.fileName ?? ''} from this event?`}
        busy={remove.isPending}
        onConfirm={() => {
          if (removing) remove.mutate(removing.fileName, { onSettled: () => setRemoving(null) });
        }}
        onHide={() => setRemoving(null)}
      />
    </>
  );
}
