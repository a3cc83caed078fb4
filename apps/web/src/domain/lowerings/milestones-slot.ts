import type { ComponentType } from 'react';

/**
 * The milestones/stats editor of a lowering (features/milestones) as the screens that open it see
 * it: the lowerings screen and the review map take it as a prop, which their routes in app/ fill
 * in, so neither imports the editor's feature (features import no other feature).
 */
export interface MilestonesModalProps {
  /** The lowering's database id. */
  loweringId: string;
  show: boolean;
  onHide: () => void;
  /** After a successful Update (the caller reloads the lowering). */
  onSaved: () => void;
}

export type MilestonesModalSlot = ComponentType<MilestonesModalProps>;
