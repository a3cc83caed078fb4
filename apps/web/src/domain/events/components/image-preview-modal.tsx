import { useState } from 'react';
import { Modal } from 'react-bootstrap';
import { ModalHeader } from '../../../components/modal-parts';
import { errorMessage } from '../../../api/client';
import { ErrorAlert } from '../../../components/alerts';
import { saveBlob } from '../../../lib/download';
import type { ImageCard } from '../lib/event-format';

/** "Image Preview - {file name}" with a download icon; the image centred (docs/screens.md#image-preview). */
export function ImagePreviewModal({ image, onHide }: { image: ImageCard | null; onHide: () => void }) {
  const [error, setError] = useState<string | null>(null);

  const download = async () => {
    if (!image) return;
    setError(null);
    try {
      const res = await fetch(image.url, { credentials: 'same-origin' });
      if (!res.ok) throw new Error(`The image could not be downloaded (${res.status})`);
      saveBlob(await res.blob(), image.fileName);
    } catch (err) {
      setError(errorMessage(err));
    }
  };

  return (
    <Modal show={!!image} onHide={onHide} size="lg" centered aria-labelledby="image-preview-title">
      <ModalHeader id="image-preview-title">
        Image Preview - {image?.fileName}{' '}
        <button
          type="button"
          className="event-icon text-primary"
          title="Download image"
          aria-label="Download image"
          onClick={() => void download()}
        >
          <i className="bi bi-download" aria-hidden="true" />
        </button>
      </ModalHeader>
      <Modal.Body className="text-center">
        <ErrorAlert message={error} />
        {image && <img src={image.url} alt={image.caption} className="img-fluid" />}
      </Modal.Body>
    </Modal>
  );
}
