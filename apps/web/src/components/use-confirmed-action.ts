import { useState } from 'react';
import { errorMessage } from '../api/client';

/**
 * A destructive action behind a ConfirmModal: what is awaiting confirmation, the busy flag while
 * it runs, the server's message when it fails, and a refresh of the list afterwards either way.
 */
export function useConfirmedAction<T>(run: (pending: T) => Promise<void>, after: () => Promise<unknown>) {
  const [pending, setPending] = useState<T | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');

  const confirm = async () => {
    if (pending === null) return;
    setBusy(true);
    setError('');
    try {
      await run(pending);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
      setPending(null);
      await after();
    }
  };

  return { pending, ask: setPending, busy, error, clearError: () => setError(''), confirm };
}
