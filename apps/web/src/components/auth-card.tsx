import type { FormEventHandler, ReactNode } from 'react';
import { Button, Card, Col, Form, Row } from 'react-bootstrap';
import { Link, useLocation } from 'wouter';
import { ErrorAlert, InfoAlert, SuccessAlert } from './alerts';

/**
 * The centred card the public auth screens share. With `aside` (the login screen's configured
 * image and text) the card is narrower and the aside stands beside it from the medium breakpoint,
 * below it on narrower screens.
 */
export function AuthCard({ title, aside, children }: { title: string; aside?: ReactNode; children: ReactNode }) {
  const card = (
    <Card>
      <Card.Body>
        <Card.Title as="h4" className="mb-3">
          {title}
        </Card.Title>
        {children}
      </Card.Body>
    </Card>
  );
  if (aside === undefined) {
    return (
      <Row className="justify-content-center mt-4">
        <Col sm={10} md={7} lg={5}>
          {card}
        </Col>
      </Row>
    );
  }
  return (
    <Row className="justify-content-center mt-4 g-4">
      <Col sm={8} md={5} lg={4}>
        {card}
      </Col>
      {/* Beside the card from 768 px up; below it on a narrower screen, never hidden (the demo's
          login hint is there). */}
      <Col sm={8} md={6} lg={5}>
        {aside}
      </Col>
    </Row>
  );
}

/** The links below an auth form; by default the way back to the login screen. */
const backToLogin = <Link to="/login">Back to Login</Link>;

export interface AuthFormCardProps {
  title: string;
  /** The form's accessible name; default the title. */
  formLabel?: string;
  /** The last attempt's failure. */
  error: string;
  /** A message that is not a failure (why the last session ended); shown until the next attempt. */
  message?: string;
  /** Closes the failure; without it the alert stays until the next attempt. */
  onCloseError?: () => void;
  onSubmit: FormEventHandler<HTMLFormElement>;
  /** The full-width submit button. */
  submit: { label: string; disabled: boolean };
  /** Another full-width button below the submit (Login as Guest). */
  secondary?: ReactNode;
  /** What replaces the alert and form once done (the server's success message). */
  done?: ReactNode;
  /** Below the rule; default Back to Login. */
  links?: ReactNode;
  aside?: ReactNode;
  /** The fields, in tab order. */
  children: ReactNode;
}

/** A public auth screen: the card, the failure alert, the form and its full-width buttons, then the links. */
export function AuthFormCard({
  title,
  formLabel = title,
  error,
  message,
  onCloseError,
  onSubmit,
  submit,
  secondary,
  done,
  links = backToLogin,
  aside,
  children,
}: AuthFormCardProps) {
  return (
    <AuthCard title={title} aside={aside}>
      {done ?? (
        <>
          <ErrorAlert message={error} onClose={onCloseError} />
          <InfoAlert message={message} />
          <Form noValidate onSubmit={onSubmit} aria-label={formLabel}>
            {children}
            <div className={secondary ? 'd-grid gap-2' : 'd-grid'}>
              <Button type="submit" variant="primary" disabled={submit.disabled}>
                {submit.label}
              </Button>
              {secondary}
            </div>
          </Form>
        </>
      )}
      <hr />
      <div className="text-center">{links}</div>
    </AuthCard>
  );
}

/**
 * The panel that replaces a finished form (registration, password reset): Success! (or the
 * screen's own word) and Back to Login.
 */
export function AuthSuccessCard({ title, message, prefix }: { title: string; message: string; prefix?: string }) {
  const [, navigate] = useLocation();
  return (
    <AuthCard title={title}>
      <SuccessAlert message={message} prefix={prefix} />
      <div className="d-grid">
        <Button variant="primary" onClick={() => navigate('/login')} autoFocus>
          Back to Login
        </Button>
      </div>
    </AuthCard>
  );
}
