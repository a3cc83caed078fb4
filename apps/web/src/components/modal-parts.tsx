import type { ReactNode } from 'react';
import { Button, Modal } from 'react-bootstrap';

/** The primary button of a modal's foot: a submit button of the modal's form unless it has its own onClick. */
export interface ModalFooterAction {
  label: ReactNode;
  onClick?: () => void;
  disabled?: boolean;
  /** Default "primary". */
  variant?: string;
  autoFocus?: boolean;
  /** The id of a note saying why the action is off. */
  describedBy?: string;
}

export interface ModalFooterProps {
  /** The grey button (Close, Cancel); the modal's ×, Escape and this all close it. */
  onClose: () => void;
  /** Default "Close". */
  closeLabel?: string;
  /** Disables the close button while the modal's work runs. */
  closeDisabled?: boolean;
  /** Focus the Close/Cancel button when the modal opens (the safe choice of a confirmation). */
  closeAutoFocus?: boolean;
  /** Buttons before the close button (e.g. Stop, Tweak!). */
  leading?: ReactNode;
  /** After the close button: Submit, Update, Yup!. */
  action?: ModalFooterAction;
}

/** The foot every modal shares: optional leading buttons, then the close button, then the action. */
export function ModalFooter({
  onClose,
  closeLabel = 'Close',
  closeDisabled,
  closeAutoFocus,
  leading,
  action,
}: ModalFooterProps) {
  return (
    <Modal.Footer>
      {leading}
      <Button variant="secondary" size="sm" onClick={onClose} disabled={closeDisabled} autoFocus={closeAutoFocus}>
        {closeLabel}
      </Button>
      {action && (
        <Button
          variant={action.variant ?? 'primary'}
          size="sm"
          type={action.onClick ? 'button' : 'submit'}
          onClick={action.onClick}
          disabled={action.disabled}
          autoFocus={action.autoFocus}
          aria-describedby={action.describedBy}
        >
          {action.label}
        </Button>
      )}
    </Modal.Footer>
  );
}

/** The head every modal shares: its title (which names the dialog, by `id`) and the white ×. */
export function ModalHeader({
  id,
  closeButton = true,
  children,
}: {
  id: string;
  /** Off while the modal's work may not be left (a running export). */
  closeButton?: boolean;
  children: ReactNode;
}) {
  return (
    <Modal.Header closeButton={closeButton} closeVariant="white">
      <Modal.Title id={id} as="h5">
        {children}
      </Modal.Title>
    </Modal.Header>
  );
}
