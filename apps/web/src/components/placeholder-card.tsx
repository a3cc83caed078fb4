import { Card } from 'react-bootstrap';

/** Stand-in for a screen that another issue builds; replaced by the real screen. */
export function PlaceholderCard({ title, children }: { title: string; children?: React.ReactNode }) {
  return (
    <Card>
      <Card.Header as="h5">{title}</Card.Header>
      <Card.Body className="text-secondary">{children ?? 'This screen is on its way.'}</Card.Body>
    </Card>
  );
}
