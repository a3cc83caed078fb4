import { Alert } from 'react-bootstrap';

/**
 * The alerts users know (docs/screens.md#alerts): errors start with "Oops!", successes with "Success!" — the
 * forgot- and reset-password screens too, as the specification words them. Nothing renders when
 * `message` is empty.
 */
export interface MessageAlertProps {
  message: string | null | undefined;
  /** Shows a close button and calls this when pressed. */
  onClose?: () => void;
  className?: string;
}

export function ErrorAlert({ message, onClose, className }: MessageAlertProps) {
  if (!message) return null;
  return (
    <Alert variant="danger" dismissible={!!onClose} onClose={onClose} className={className} role="alert">
      <strong>Oops!</strong> {message}
    </Alert>
  );
}

export function SuccessAlert({ message, onClose, className }: MessageAlertProps) {
  if (!message) return null;
  return (
    <Alert variant="success" dismissible={!!onClose} onClose={onClose} className={className} role="status">
      <strong>Success!</strong> {message}
    </Alert>
  );
}
