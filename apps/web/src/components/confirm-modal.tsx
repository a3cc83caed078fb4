import type { ReactNode } from 'react';
import { Button, Modal } from 'react-bootstrap';

export interface ConfirmModalProps {
  show: boolean;
  /** Default "Confirm Deletion" (client-behaviour §13); e.g. "Confirm Wipe". */
  title?: string;
  /** e.g. "Are you sure you want to delete this user?" */
  body: ReactNode;
  /** Default "Yup!". */
  confirmLabel?: string;
  confirmVariant?: string;
  /** Default "Cancel". */
  cancelLabel?: string;
  /** Disables the buttons while the action runs. */
  busy?: boolean;
  onConfirm: () => void;
  /** Cancel, the × and Escape all call this. */
  onHide: () => void;
}

/** One confirmation modal for every delete/wipe in the product. */
export function ConfirmModal({
  show,
  title = 'Confirm Deletion',
  body,
  confirmLabel = 'Yup!',
  confirmVariant = 'danger',
  cancelLabel = 'Cancel',
  busy = false,
  onConfirm,
  onHide,
}: ConfirmModalProps) {
  return (
    <Modal show={show} onHide={onHide} centered aria-labelledby="confirm-modal-title">
      <Modal.Header closeButton closeVariant="white">
        <Modal.Title id="confirm-modal-title" as="h5">
          {title}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>{body}</Modal.Body>
      <Modal.Footer>
        {/* Focus starts on the safe button: Enter pressed twice (opening, then again) must never
            delete or wipe; the destructive button takes a deliberate Tab or click. */}
        <Button variant="secondary" size="sm" onClick={onHide} disabled={busy} autoFocus>
          {cancelLabel}
        </Button>
        <Button variant={confirmVariant} size="sm" onClick={onConfirm} disabled={busy}>
          {confirmLabel}
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
