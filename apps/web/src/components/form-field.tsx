import type { ReactNode } from 'react';
import { Col, Form, Row } from 'react-bootstrap';
import type { FieldError, UseFormRegisterReturn } from 'react-hook-form';

/** The red asterisk of a required field; hidden from screen readers, which read the field's own state. */
export function RequiredMark({ small }: { small?: boolean }) {
  return (
    <span className={`text-danger ms-1${small ? ' small' : ''}`} aria-hidden="true">
      *
    </span>
  );
}

/**
 * A field's label with the required asterisk beside it, not inside it, so the field's accessible
 * name is exactly the label text. Inside a Form.Group, which links it to the control.
 */
export function FieldLabel({
  children,
  required = false,
  small = false,
}: {
  children: ReactNode;
  required?: boolean;
  /** The compact look of the event options modal (no gap below). */
  small?: boolean;
}) {
  return (
    <div className={small ? 'd-flex' : 'd-flex mb-1'}>
      <Form.Label className={`mb-0${small ? ' small' : ''}`}>{children}</Form.Label>
      {required && <RequiredMark small={small} />}
    </div>
  );
}

/** Links a control to its message element (`<id>-feedback`), so the message is read with the field. */
export function describedBy(id: string, message: string | undefined) {
  return message ? { 'aria-invalid': true as const, 'aria-describedby': `${id}-feedback` } : {};
}

export interface TextFieldProps {
  /** Visible label; also the accessible name. Omit `label` and pass `placeholder` for label-less login fields. */
  label?: string;
  placeholder?: string;
  type?: 'text' | 'password' | 'email';
  registration: UseFormRegisterReturn;
  error?: FieldError;
  required?: boolean;
  readOnly?: boolean;
  disabled?: boolean;
  autoComplete?: string;
  autoFocus?: boolean;
  className?: string;
  /** The input's id is `<idPrefix>-<field name>`. */
  idPrefix?: string;
  /** A multi-line text area of this many rows instead of an input. */
  rows?: number;
  /** A note that does not block saving (e.g. "Non-standard ID"), shown when there is no error. */
  warning?: string;
}

/** A bootstrap text input bound to react-hook-form, showing the field's first message. */
export function TextField({
  label,
  placeholder,
  type = 'text',
  registration,
  error,
  required,
  readOnly,
  disabled,
  autoComplete,
  autoFocus,
  className = 'mb-3',
  idPrefix = 'field',
  rows,
  warning,
}: TextFieldProps) {
  const id = `${idPrefix}-${registration.name}`;
  const note = !error && warning ? { 'aria-describedby': `${id}-warning` } : {};
  return (
    <Form.Group className={className} controlId={id}>
      {label && <FieldLabel required={required}>{label}</FieldLabel>}
      <Form.Control
        {...(rows ? { as: 'textarea' as const, rows } : { type })}
        placeholder={placeholder}
        aria-label={label ? undefined : placeholder}
        isInvalid={!!error}
        {...note}
        {...describedBy(id, error?.message)}
        readOnly={readOnly}
        disabled={disabled}
        autoComplete={autoComplete}
        autoFocus={autoFocus}
        {...registration}
      />
      <Form.Control.Feedback type="invalid" id={`${id}-feedback`}>
        {error?.message}
      </Form.Control.Feedback>
      {!error && warning && (
        <Form.Text id={`${id}-warning`} className="text-warning d-block">
          {warning}
        </Form.Text>
      )}
    </Form.Group>
  );
}

export interface PasswordPairProps {
  password: UseFormRegisterReturn;
  confirmPassword: UseFormRegisterReturn;
  errors: { password?: FieldError; confirmPassword?: FieldError };
  /** Registration and reset ask for a password; profile and user forms only change it when typed. */
  required?: boolean;
  autoFocus?: boolean;
  /** Side by side from the small breakpoint up (the wider profile and user forms). */
  columns?: boolean;
  idPrefix?: string;
}

/** Password and Confirm Password, both filled as a new password. */
export function PasswordPair({
  password,
  confirmPassword,
  errors,
  required,
  autoFocus,
  columns,
  idPrefix,
}: PasswordPairProps) {
  const first = (
    <TextField
      label="Password"
      required={required}
      type="password"
      registration={password}
      error={errors.password}
      autoComplete="new-password"
      autoFocus={autoFocus}
      idPrefix={idPrefix}
    />
  );
  const second = (
    <TextField
      label="Confirm Password"
      required={required}
      type="password"
      registration={confirmPassword}
      error={errors.confirmPassword}
      autoComplete="new-password"
      idPrefix={idPrefix}
    />
  );
  if (!columns) {
    return (
      <>
        {first}
        {second}
      </>
    );
  }
  return (
    <Row>
      <Col sm={6}>{first}</Col>
      <Col sm={6}>{second}</Col>
    </Row>
  );
}
