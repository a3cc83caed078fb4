import { lazy, Suspense, type ComponentProps } from 'react';
import { LoadingText, statusTexts } from '../../../components/status-text';

// The event details dialog is its own chunk where the shell opens it (the footer's warning).
const EventDetailsModal = lazy(async () => ({ default: (await import('./event-details-modal')).EventDetailsModal }));

/** The event details dialog (event-details-modal.tsx), loaded on first use. */
export function LazyEventDetailsModal(props: ComponentProps<typeof EventDetailsModal>) {
  return (
    <Suspense fallback={<LoadingText text={statusTexts.loading} />}>
      <EventDetailsModal {...props} />
    </Suspense>
  );
}
