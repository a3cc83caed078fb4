import { Col, Row } from 'react-bootstrap';
import type { FieldError, UseFormRegisterReturn } from '../lib/form';
import { PasswordPair, TextField } from './form-field';

type AccountFieldName = 'username' | 'fullname' | 'email' | 'password' | 'confirmPassword';

export interface AccountFieldsProps {
  register: (name: AccountFieldName) => UseFormRegisterReturn;
  errors: Partial<Record<AccountFieldName, FieldError>>;
  /**
   * "fill": the browser fills the user's own account (registration, profile); "off": an admin
   * types someone else's (the user form), so nothing is suggested.
   */
  autoComplete: 'fill' | 'off';
  /** Username and full name, then the passwords, side by side from the large breakpoint up. */
  columns?: boolean;
  /** The profile keeps the stored username when the field is left blank. */
  usernameOptional?: boolean;
  /** The email cannot be changed once the account exists. */
  emailReadOnly?: boolean;
  /** Registration and reset ask for a password; profile and user forms only change it when typed. */
  passwordRequired?: boolean;
  autoFocus?: boolean;
  idPrefix?: string;
}

/** Username, full name, email and the password pair of an account, in this tab order. */
export function AccountFields({
  register,
  errors,
  autoComplete,
  columns,
  usernameOptional,
  emailReadOnly,
  passwordRequired,
  autoFocus,
  idPrefix,
}: AccountFieldsProps) {
  const fill = autoComplete === 'fill';
  const username = (
    <TextField
      idPrefix={idPrefix}
      label="Username"
      required={!usernameOptional}
      registration={register('username')}
      error={errors.username}
      autoComplete={fill ? 'username' : 'off'}
      autoFocus={autoFocus}
    />
  );
  const fullname = (
    <TextField
      idPrefix={idPrefix}
      label="Full Name"
      required
      registration={register('fullname')}
      error={errors.fullname}
      autoComplete={fill ? 'name' : 'off'}
    />
  );
  return (
    <>
      {columns ? (
        <Row>
          <Col lg={6}>{username}</Col>
          <Col lg={6}>{fullname}</Col>
        </Row>
      ) : (
        <>
          {username}
          {fullname}
        </>
      )}
      <TextField
        idPrefix={idPrefix}
        label="Email"
        required
        type="email"
        registration={register('email')}
        error={errors.email}
        readOnly={emailReadOnly}
        // A read-only address of one's own is not filled in.
        autoComplete={fill ? (emailReadOnly ? undefined : 'email') : 'off'}
      />
      <PasswordPair
        required={passwordRequired}
        columns={columns}
        idPrefix={idPrefix}
        password={register('password')}
        confirmPassword={register('confirmPassword')}
        errors={errors}
      />
    </>
  );
}
