import { useCallback, useMemo, useState, type ReactNode } from 'react';
import { Button } from 'react-bootstrap';
import { errorMessage } from '../api/client';
import { ErrorAlert, SuccessAlert } from './alerts';

/**
 * The failure and success texts of a form's last save, as FormActions shows them. `save` clears
 * both, runs the work and shows its failure (the server's message); the work sets the success.
 * `submit` wraps the form's submit handler so every press clears them first, a press the form's
 * own validation stops too: a green "User updated" left beside a refused password would read as
 * saved.
 */
export function useFormAlerts() {
  const [error, setError] = useState('');
  const [message, setMessage] = useState('');
  const clear = useCallback(() => {
    setError('');
    setMessage('');
  }, []);
  const save = useCallback(
    async (work: () => Promise<void>) => {
      clear();
      try {
        await work();
      } catch (err) {
        setError(errorMessage(err));
      }
    },
    [clear],
  );
  const submit = useCallback(
    <E,>(handler: (event?: E) => Promise<void>) =>
      (event?: E) => {
        clear();
        return handler(event);
      },
    [clear],
  );
  return useMemo(
    () => ({
      error,
      message,
      setError,
      setMessage,
      clear,
      save,
      submit,
      onCloseError: () => setError(''),
      onCloseMessage: () => setMessage(''),
    }),
    [error, message, clear, save, submit],
  );
}

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
      {/* Buttons keep their words on one line; a narrow form moves a whole button down instead. */}
      <div className="d-flex flex-wrap justify-content-end gap-2">
        {leading}
        <Button
          variant="outline-secondary"
          size="sm"
          type="button"
          className="text-nowrap"
          disabled={!changed || submitting}
          onClick={onReset}
        >
          {resetLabel}
        </Button>
        <Button
          variant="primary"
          size="sm"
          type="submit"
          className="text-nowrap"
          disabled={submitting || (editing && !changed)}
        >
          {submitLabel}
        </Button>
      </div>
    </>
  );
}
