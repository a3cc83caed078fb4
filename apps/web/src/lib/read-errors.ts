import { useEffect } from 'react';
import { isApiError } from '../api/client';

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
