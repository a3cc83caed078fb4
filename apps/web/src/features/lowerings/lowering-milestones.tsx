import { lazy, Suspense, useState } from 'react';
import { MilestonesButton } from './lowering-form';

/** The editor with its map and chart: loaded on first use, outside this screen's first chunk. */
const MilestonesModal = lazy(async () => ({
  default: (await import('../milestones/milestones-modal')).MilestonesModal,
}));

/**
 * The lowering form's orange Milestones button and the milestones/stats editor it opens
 * (docs/screens.md#milestones-editor). A saved change refreshes the lists, so the form and rows follow.
 */
export function LoweringMilestones({ loweringId, onSaved }: { loweringId: string; onSaved: () => Promise<unknown> }) {
  const [open, setOpen] = useState(false);
  const [loaded, setLoaded] = useState(false);
  return (
    <>
      <MilestonesButton
        onClick={() => {
          setLoaded(true);
          setOpen(true);
        }}
      />
      {loaded && (
        <Suspense fallback={null}>
          <MilestonesModal
            loweringId={loweringId}
            show={open}
            onHide={() => setOpen(false)}
            onSaved={() => void onSaved()}
          />
        </Suspense>
      )}
    </>
  );
}
