import { isValidElement, type ReactNode } from 'react';
import { Col, Form, Row } from 'react-bootstrap';
import type { FieldError, UseFormRegisterReturn } from '../lib/form';
import type { TimeEdge } from '@bathylog/shared';
import { DateTimeInput, type DateTimeMode } from './date-time-input';

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

/** What every labelled field takes: its label, required mark, message and place. */
interface FieldBaseProps {
  /** Visible label; also the accessible name. */
  label?: string;
  registration: UseFormRegisterReturn;
  error?: FieldError;
  required?: boolean;
  disabled?: boolean;
  /** The group's class (its gap below); default "mb-3". */
  className?: string;
  /** The control's id is `<idPrefix>-<field name>`. */
  idPrefix?: string;
  /** The control's id when the field name does not make one (fields of a list). */
  id?: string;
  /** The compact controls of a nested block (the event template's options). */
  size?: 'sm';
}

/** Form.Group, label, the control, then its message; the control comes from the field type. */
function FieldGroup({
  id,
  label,
  required,
  className,
  error,
  warning,
  children,
}: {
  id: string;
  label?: string;
  required?: boolean;
  className: string;
  error?: FieldError;
  warning?: string;
  children: ReactNode;
}) {
  return (
    <Form.Group className={className} controlId={id}>
      {label && <FieldLabel required={required}>{label}</FieldLabel>}
      {children}
      {/* A date/time field shows its message inside its input group. */}
      {!isValidElement(children) || children.type !== DateTimeInput ? (
        <Form.Control.Feedback type="invalid" id={`${id}-feedback`}>
          {error?.message}
        </Form.Control.Feedback>
      ) : null}
      {!error && warning && (
        <Form.Text id={`${id}-warning`} className="text-warning d-block">
          {warning}
        </Form.Text>
      )}
    </Form.Group>
  );
}

function fieldId({ id, idPrefix = 'field', registration }: Pick<FieldBaseProps, 'id' | 'idPrefix' | 'registration'>) {
  return id ?? `${idPrefix}-${registration.name}`;
}

export interface TextFieldProps extends FieldBaseProps {
  /** Omit `label` and pass `placeholder` for label-less login fields. */
  placeholder?: string;
  type?: 'text' | 'password' | 'email';
  readOnly?: boolean;
  autoComplete?: string;
  autoFocus?: boolean;
  /** A multi-line text area of this many rows instead of an input. */
  rows?: number;
  /** A note that does not block saving (e.g. "Non-standard ID"), shown when there is no error. */
  warning?: string;
  /** A date/time field (docs/screens.md#date-and-time-fields): a day or a day and time, with a calendar. */
  picker?: DateTimeMode;
  /** Which end of a range a date/time field is (a date alone is then the end of its day). */
  edge?: TimeEdge;
}

/** A bootstrap text input bound to a form (src/lib/form.ts), showing the field's first message. */
export function TextField(props: TextFieldProps) {
  const { label, placeholder, type = 'text', registration, error, required, readOnly, disabled } = props;
  const { autoComplete, autoFocus, className = 'mb-3', rows, warning, size, picker, edge } = props;
  const id = fieldId(props);
  const note = !error && warning ? { 'aria-describedby': `${id}-warning` } : {};
  if (picker) {
    return (
      <FieldGroup id={id} label={label} required={required} className={className} error={error}>
        <DateTimeInput
          mode={picker}
          edge={edge}
          size={size}
          placeholder={placeholder}
          isInvalid={!!error}
          {...describedBy(id, error?.message)}
          disabled={disabled}
          readOnly={readOnly}
          {...registration}
          feedback={
            <Form.Control.Feedback type="invalid" id={`${id}-feedback`}>
              {error?.message}
            </Form.Control.Feedback>
          }
        />
      </FieldGroup>
    );
  }
  return (
    <FieldGroup id={id} label={label} required={required} className={className} error={error} warning={warning}>
      <Form.Control
        {...(rows ? { as: 'textarea' as const, rows } : { type })}
        size={size}
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
    </FieldGroup>
  );
}

export interface SelectFieldProps extends FieldBaseProps {
  /** The choices, each its own value and text. */
  options: readonly string[];
  /** The first, empty-valued choice's text ("" for a blank line). */
  blank: string;
}

/** A bootstrap select bound to a form (src/lib/form.ts): a blank (or "none") choice, then the options. */
export function SelectField(props: SelectFieldProps) {
  const { label, registration, error, required, disabled, className = 'mb-3', size, options, blank } = props;
  const id = fieldId(props);
  return (
    <FieldGroup id={id} label={label} required={required} className={className} error={error}>
      <Form.Select
        size={size}
        isInvalid={!!error}
        {...describedBy(id, error?.message)}
        disabled={disabled}
        {...registration}
      >
        <option value="">{blank}</option>
        {options.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </Form.Select>
    </FieldGroup>
  );
}

export interface PasswordPairProps {
  password: UseFormRegisterReturn;
  confirmPassword: UseFormRegisterReturn;
  errors: { password?: FieldError; confirmPassword?: FieldError };
  /** Registration and reset ask for a password; profile and user forms only change it when typed. */
  required?: boolean;
  autoFocus?: boolean;
  /** Side by side from the large breakpoint up (the profile and user forms): narrower, the labels would wrap. */
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
      <Col lg={6}>{first}</Col>
      <Col lg={6}>{second}</Col>
    </Row>
  );
}
