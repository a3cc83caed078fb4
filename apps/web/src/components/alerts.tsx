import { Alert } from 'react-bootstrap';

/**
 * The alerts users know (docs/screens.md#alerts): errors start with "Oops!", successes with "Success!" (the
 * reset-password screen's with "Sweet!"). Nothing renders when `message` is empty.
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

export function SuccessAlert({
  message,
  onClose,
  className,
  prefix = 'Success!',
}: MessageAlertProps & { prefix?: string }) {
  if (!message) return null;
  return (
    <Alert variant="success" dismissible={!!onClose} onClose={onClose} className={className} role="status">
      <strong>{prefix}</strong> {message}
    </Alert>
  );
}

/**
 * A message that is neither a failure nor a success: why the last session ended, on the login
 * screen (an admin changed the roles, the session expired). The login attempt has not failed, so
 * no "Oops!".
 */
export function InfoAlert({ message, onClose, className }: MessageAlertProps) {
  if (!message) return null;
  return (
    <Alert variant="info" dismissible={!!onClose} onClose={onClose} className={className} role="status">
      {message}
    </Alert>
  );
}
