import { useState } from 'react';
import { Button, Form } from 'react-bootstrap';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link } from 'react-router';
import { forgotPasswordFormSchema, type ForgotPasswordForm } from '@bathylog/shared/rules/auth-forms';
import { useForgotPassword } from '../../api/auth';
import { errorMessage } from '../../api/client';
import { ErrorAlert, SuccessAlert } from '../../components/alerts';
import { useCaptcha } from '../../lib/captcha';
import { AuthCard } from './auth-card';
import { TextField } from '../../components/form-field';

/** The reset link: the app's own origin and root path, then the token the server appends. */
export function resetPasswordUrl(): string {
  return `${window.location.origin}/resetPassword/`;
}

/** /forgotPassword (docs/screens.md#forgot-and-reset-password): email; on success the server's message. */
export function ForgotPasswordScreen() {
  const captcha = useCaptcha();
  const forgot = useForgotPassword();
  const [error, setError] = useState('');
  const [message, setMessage] = useState('');
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting, isValid },
  } = useForm<ForgotPasswordForm>({
    resolver: zodResolver(forgotPasswordFormSchema),
    defaultValues: { email: '' },
    mode: 'onChange',
  });

  const onSubmit = handleSubmit(async (values) => {
    setError('');
    try {
      const text = await forgot.mutateAsync({
        email: values.email.trim(),
        resetURL: resetPasswordUrl(),
        reCaptcha: await captcha(),
      });
      setMessage(text || 'password reset email sent');
    } catch (err) {
      setError(errorMessage(err));
    }
  });

  return (
    <AuthCard title="Forgot Password">
      {message ? (
        <SuccessAlert message={message} />
      ) : (
        <>
          <ErrorAlert message={error} />
          <Form noValidate onSubmit={onSubmit} aria-label="Forgot Password">
            <TextField
              label="Email"
              required
              type="email"
              registration={register('email')}
              error={errors.email}
              autoComplete="email"
              autoFocus
            />
            <div className="d-grid">
              <Button type="submit" variant="primary" disabled={isSubmitting || !isValid}>
                Submit
              </Button>
            </div>
          </Form>
        </>
      )}
      <hr />
      <div className="text-center">
        <Link to="/login">Back to Login</Link>
      </div>
    </AuthCard>
  );
}
