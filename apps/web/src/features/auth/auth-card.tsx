import type { ReactNode } from 'react';
import { Button, Card, Col, Row } from 'react-bootstrap';
import { useNavigate } from 'react-router';
import { SuccessAlert } from '../../components/alerts';

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

/** The panel that replaces a finished form (registration, password reset): Success! and Back to Login. */
export function AuthSuccessCard({ title, message }: { title: string; message: string }) {
  const navigate = useNavigate();
  return (
    <AuthCard title={title}>
      <SuccessAlert message={message} />
      <div className="d-grid">
        <Button variant="primary" onClick={() => navigate('/login')} autoFocus>
          Back to Login
        </Button>
      </div>
    </AuthCard>
  );
}
