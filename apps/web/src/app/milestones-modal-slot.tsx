import { lazy, Suspense } from 'react';
import type { MilestonesModalProps } from '../domain/lowerings/milestones-slot';

// The editor with its map and chart loads on first opening (in the maps chunk), not with the screen.
const MilestonesModal = lazy(async () => ({
  default: (await import('../features/milestones/milestones-modal')).MilestonesModal,
}));

/** The milestones/stats editor the lowerings screen and the review map open (their `milestonesModal` prop). */
export function LazyMilestonesModal(props: MilestonesModalProps) {
  return (
    <Suspense fallback={null}>
      <MilestonesModal {...props} />
    </Suspense>
  );
}
