import { useEffect } from 'react';
import { errorMessage, isApiError } from '../api/client';

/**
 * docs/screens.md#failed-reads: a failed read leaves an empty list and is logged to the console, except a 401
 * (the token check logs the user out) and a 404 (Sealog's answer for an empty list).
 */
export function useLoggedReadError(error: unknown, what: string): void {
  useEffect(() => {
    if (!error) return;
    if (isApiError(error, 401) || isApiError(error, 404)) return;
    console.error(`Could not read ${what}:`, error);
  }, [error, what]);
}

/**
 * What a list shows instead of its empty state when its read failed (docs/screens.md#failed-reads):
 * the error's message, or null when there is none to show — no error, a 401 (the session check
 * logs the user out) or a 404 (an empty list, as Sealog answers it).
 */
export function readFailure(error: unknown): string | null {
  if (!error || isApiError(error, 401) || isApiError(error, 404)) return null;
  return errorMessage(error);
}
