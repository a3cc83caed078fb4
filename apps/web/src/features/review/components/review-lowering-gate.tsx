import type { ReactNode } from 'react';
import { Alert } from 'react-bootstrap';
import { Link } from 'wouter';
import { errorMessage, isApiError } from '../../../api/client';
import { useEntityNames } from '../../../lib/settings';
import { useReviewLowering } from '../api/review';

/**
 * A review screen opens only on a lowering it can read (docs/screens.md#review-screens): a bad or
 * deleted id, or one the user may not see, shows one message and the way back to the cruise menu,
 * and nothing else (no slider, map or menu of a lowering that is not there). While the lowering
 * is on its way the screen shows as usual.
 */
export function ReviewLoweringGate({ loweringId, children }: { loweringId: string; children: ReactNode }) {
  const names = useEntityNames();
  const lowering = useReviewLowering(loweringId);
  if (!lowering.isError) return <>{children}</>;
  const missing = [400, 403, 404].some((status) => isApiError(lowering.error, status));
  return (
    <div className="review-screen" data-testid="review-lowering-missing">
      <nav aria-label="breadcrumb" className="review-breadcrumb">
        <ol className="breadcrumb mb-2">
          <li className="breadcrumb-item">
            <Link to="/cruise_menu" className="text-warning">
              {names.Cruises}
            </Link>
          </li>
        </ol>
      </nav>
      <Alert variant="danger" role="alert">
        <strong>Oops!</strong>{' '}
        {missing
          ? `This ${names.lowering} was not found: it may have been deleted, or the link is wrong.`
          : `This ${names.lowering} could not be read: ${errorMessage(lowering.error)}`}{' '}
        <Link to="/cruise_menu" className="alert-link">
          Back to the {names.cruise} menu
        </Link>
      </Alert>
    </div>
  );
}
