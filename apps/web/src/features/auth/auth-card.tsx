import type { ReactNode } from 'react';
import { Card, Col, Row } from 'react-bootstrap';

/** The centred card the public auth screens share. */
export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Row className="justify-content-center mt-4">
      <Col sm={10} md={7} lg={5}>
        <Card>
          <Card.Body>
            <Card.Title as="h4" className="mb-3">
              {title}
            </Card.Title>
            {children}
          </Card.Body>
        </Card>
      </Col>
    </Row>
  );
}
