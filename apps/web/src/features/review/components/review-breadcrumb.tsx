import { Dropdown } from 'react-bootstrap';
import { Link } from 'wouter';
import { statusTexts } from '../../../components/status-text';
import { useEntityNames } from '../../../lib/settings';
import { cruiseMenuPath } from '../../../domain/cruises/cruise-menu-link';
import { reviewModes, reviewPath, type ReviewMode } from '../../../domain/lowerings/review-modes';
import { useReviewCruise, useReviewLowering } from '../api/review';

/**
 * Top-left breadcrumb of the review screens (docs/screens.md#breadcrumb): {Cruises} › cruise_id
 * (both back to the cruise menu; the cruise's link opens it on this cruise and lowering) › lowering_id › the active mode, a menu of the other two.
 */
export function ReviewBreadcrumb({ loweringId, mode }: { loweringId: string; mode: ReviewMode }) {
  const names = useEntityNames();
  const lowering = useReviewLowering(loweringId);
  const cruise = useReviewCruise(loweringId);
  const active = reviewModes.find((m) => m.mode === mode)!;
  return (
    <nav aria-label="breadcrumb" className="review-breadcrumb">
      <ol className="breadcrumb mb-2 align-items-center">
        <li className="breadcrumb-item">
          <Link to="/cruise_menu" className="text-warning">
            {names.Cruises}
          </Link>
        </li>
        {cruise.data && (
          <li className="breadcrumb-item">
            <Link
              to={cruiseMenuPath({ cruiseId: cruise.data.id, loweringId })}
              className="text-warning"
              data-testid="breadcrumb-cruise"
            >
              {cruise.data.cruise_id}
            </Link>
          </li>
        )}
        <li className="breadcrumb-item">
          <span className="text-warning" data-testid="breadcrumb-lowering">
            {lowering.data?.lowering_id ?? statusTexts.loading}
          </span>
        </li>
        <li className="breadcrumb-item" aria-current="page">
          <Dropdown className="d-inline-block">
            <Dropdown.Toggle variant="link" size="sm" className="p-0 review-mode-toggle" id="review-mode">
              {active.label}
            </Dropdown.Toggle>
            <Dropdown.Menu>
              {reviewModes
                .filter((m) => m.mode !== mode)
                .map((m) => (
                  <Dropdown.Item as={Link} key={m.mode} to={reviewPath(m.mode, loweringId)}>
                    {m.label}
                  </Dropdown.Item>
                ))}
              <Dropdown.Divider />
              <Dropdown.Item as={Link} to={`/report/lowering/${loweringId}`}>
                Dive Report
              </Dropdown.Item>
            </Dropdown.Menu>
          </Dropdown>
        </li>
      </ol>
    </nav>
  );
}
