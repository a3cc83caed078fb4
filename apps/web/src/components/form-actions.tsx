import type { ReactNode } from 'react';
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
  /** Changes outside the form fields (e.g. uploaded files) that also enable Reset and Update. */
  extraDirty?: boolean;
  /** Buttons before Reset (e.g. the lowering form's Milestones). */
  leading?: ReactNode;
}

/** The foot of a management form (docs/screens.md#management-forms): its alerts, then Reset and Add/Update. */
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
  extraDirty = false,
  leading,
}: FormActionsProps) {
  const changed = dirty || extraDirty;
  return (
    <>
      <ErrorAlert message={error} onClose={onCloseError} />
      <SuccessAlert message={message} onClose={onCloseMessage} />
      <div className="d-flex justify-content-end gap-2">
        {leading}
        <Button variant="outline-secondary" size="sm" type="button" disabled={!changed || submitting} onClick={onReset}>
          {resetLabel}
        </Button>
        <Button variant="primary" size="sm" type="submit" disabled={submitting || (editing && !changed)}>
          {submitLabel}
        </Button>
      </div>
    </>
  );
}
