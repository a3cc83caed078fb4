import { lazy, Suspense, type ComponentProps } from 'react';
import { LoadingText, statusTexts } from '../../components/status-text';

// The checklists dialog is its own chunk, fetched when first opened.
const ChecklistsModal = lazy(async () => ({ default: (await import('./checklists-modal')).ChecklistsModal }));

/** The checklists dialog (checklists-modal.tsx), loaded on first use. */
export function LazyChecklistsModal(props: ComponentProps<typeof ChecklistsModal>) {
  return (
    <Suspense fallback={<LoadingText text={statusTexts.loading} />}>
      <ChecklistsModal {...props} />
    </Suspense>
  );
}
