import { LoweringsScreen } from '../../features/lowerings/lowerings-screen';
import { LazyMilestonesModal } from '../milestones-modal-slot';

/** /lowerings, whose lowering form opens the milestones/stats editor. */
export function LoweringsRoute() {
  return <LoweringsScreen milestonesModal={LazyMilestonesModal} />;
}
