import { Dropdown } from 'react-bootstrap';
import { Link } from 'wouter';
import { reviewModes, reviewPath, type ReviewMode } from '../../domain/lowerings/review-modes';

/**
 * The review-mode menu (docs/screens.md#review-mode-menu): Replay View, Map View and Gallery View,
 * the current mode hidden.
 */
export function ReviewMenu({ loweringId, current, id }: { loweringId: string; current?: ReviewMode; id: string }) {
  return (
    <Dropdown align="end" className="d-inline-block">
      <Dropdown.Toggle variant="link" size="sm" className="p-0 text-primary text-decoration-none" id={id}>
        Review
      </Dropdown.Toggle>
      <Dropdown.Menu>
        {reviewModes
          .filter((m) => m.mode !== current)
          .map((m) => (
            <Dropdown.Item key={m.mode} as={Link} to={reviewPath(m.mode, loweringId)}>
              {m.label}
            </Dropdown.Item>
          ))}
        <Dropdown.Divider />
        <Dropdown.Item as={Link} to={`/report/lowering/${loweringId}`}>
          Dive Report
        </Dropdown.Item>
      </Dropdown.Menu>
    </Dropdown>
  );
}
