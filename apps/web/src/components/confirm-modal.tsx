import type { ReactNode } from 'react';
import { Modal } from 'react-bootstrap';
import { ModalFooter, ModalHeader } from './modal-parts';

export interface ConfirmModalProps {
  show: boolean;
  /** Default "Confirm Deletion" (docs/screens.md#confirmation-modals); e.g. "Confirm Wipe". */
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
      <ModalHeader id="confirm-modal-title">{title}</ModalHeader>
      <Modal.Body>{body}</Modal.Body>
      {/* Focus starts on the safe button: Enter pressed twice (opening, then again) must never
          delete or wipe; the destructive button takes a deliberate Tab or click. */}
      <ModalFooter
        onClose={onHide}
        closeLabel={cancelLabel}
        closeDisabled={busy}
        closeAutoFocus
        action={{ label: confirmLabel, variant: confirmVariant, onClick: onConfirm, disabled: busy }}
      />
    </Modal>
  );
}
