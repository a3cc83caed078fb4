import type { ReactNode } from 'react';

/**
 * Empty and loading states with the exact words users know
 * (docs/screens.md#loading-and-empty-states), e.g. <LoadingText /> → "Fetching...", <EmptyText>No
 * users found!</EmptyText>. Use these so tests can find them by text.
 */
export const statusTexts = {
  fetching: 'Fetching...',
  loading: 'Loading...',
  noUsers: 'No users found!',
  noEventTemplates: 'No event templates found!',
  noEventTemplatesConsole: 'No Event Templates found',
  noEvents: 'No events found',
  noImages: 'No images found',
  noCruises: 'No cruises found!',
  notAllowed: 'What are YOU doing here?',
} as const;

export function LoadingText({ text = statusTexts.fetching, className }: { text?: string; className?: string }) {
  return (
    <div className={className ?? 'text-center text-secondary p-2'} role="status" aria-live="polite">
      {text}
    </div>
  );
}

export function EmptyText({ children, className }: { children: ReactNode; className?: string }) {
  return <div className={className ?? 'text-center text-secondary p-2'}>{children}</div>;
}
