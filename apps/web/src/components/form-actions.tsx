import { Button } from 'react-bootstrap';
import { ErrorAlert, SuccessAlert } from './alerts';

export interface FormActionsProps {
  /** The last save's failure and success texts; closing an alert clears its text. */
  error: string;
  message: string;
  onCloseError: () => void;
  onCloseMessage: () => void;
  /** e.g. "Reset Form"; enabled only when there is something to reset. */
  resetLabel: string;
  dirty: boolean;
  submitting: boolean;
  onReset: () => void;
  /** "Add"/"Create" for a new record, "Update" when editing one (then only once changed). */
  submitLabel: string;
  editing: boolean;
}

/** The foot of a management form (client-behaviour §9): its alerts, then Reset and Add/Update. */
export function FormActions({
  error,
  message,
  onCloseError,
  onCloseMessage,
  resetLabel,
  dirty,
  submitting,
  onReset,
  submitLabel,
  editing,
}: FormActionsProps) {
  return (
    <>
      <ErrorAlert message={error} onClose={onCloseError} />
      <SuccessAlert message={message} onClose={onCloseMessage} />
      <div className="d-flex justify-content-end gap-2">
        <Button variant="outline-secondary" size="sm" type="button" disabled={!dirty || submitting} onClick={onReset}>
          {resetLabel}
        </Button>
        <Button variant="primary" size="sm" type="submit" disabled={submitting || (editing && !dirty)}>
          {submitLabel}
        </Button>
      </div>
    </>
  );
}
