import { useState } from 'react';
import type { MilestonesModalSlot } from '../../domain/lowerings/milestones-slot';
import { MilestonesButton } from './lowering-form';

/**
 * The lowering form's orange Milestones button and the milestones/stats editor it opens
 * (docs/screens.md#milestones-editor). A saved change refreshes the lists, so the form and rows follow.
 */
export function LoweringMilestones({
  loweringId,
  onSaved,
  milestonesModal: MilestonesModal,
}: {
  loweringId: string;
  onSaved: () => Promise<unknown>;
  milestonesModal: MilestonesModalSlot;
}) {
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
        <MilestonesModal
          loweringId={loweringId}
          show={open}
          onHide={() => setOpen(false)}
          onSaved={() => void onSaved()}
        />
      )}
    </>
  );
}
