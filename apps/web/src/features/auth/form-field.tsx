import { Form } from 'react-bootstrap';
import type { FieldError, UseFormRegisterReturn } from 'react-hook-form';

export interface TextFieldProps {
  /** Visible label; also the accessible name. Omit `label` and pass `placeholder` for label-less login fields. */
  label?: string;
  placeholder?: string;
  type?: 'text' | 'password' | 'email';
  registration: UseFormRegisterReturn;
  error?: FieldError;
  required?: boolean;
  readOnly?: boolean;
  autoComplete?: string;
  autoFocus?: boolean;
  className?: string;
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
  autoComplete,
  autoFocus,
  className = 'mb-3',
}: TextFieldProps) {
  const id = `field-${registration.name}`;
  return (
    <Form.Group className={className} controlId={id}>
      {label && (
        // The asterisk sits beside the label, so the field's name stays exactly the label text.
        <div className="d-flex mb-1">
          <Form.Label className="mb-0">{label}</Form.Label>
          {required && (
            <span className="text-danger ms-1" aria-hidden="true">
              *
            </span>
          )}
        </div>
      )}
      <Form.Control
        type={type}
        placeholder={placeholder}
        aria-label={label ? undefined : placeholder}
        isInvalid={!!error}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-feedback` : undefined}
        readOnly={readOnly}
        autoComplete={autoComplete}
        autoFocus={autoFocus}
        {...registration}
      />
      <Form.Control.Feedback type="invalid" id={`${id}-feedback`}>
        {error?.message}
      </Form.Control.Feedback>
    </Form.Group>
  );
}
