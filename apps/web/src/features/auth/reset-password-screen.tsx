import { useState } from 'react';
import { Button, Form } from 'react-bootstrap';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link, useParams } from 'react-router';
import { resetPasswordFormSchema, type ResetPasswordForm } from '@bathylog/shared/rules/auth-forms';
import { useResetPassword } from '../../api/auth';
import { errorMessage } from '../../api/client';
import { ErrorAlert } from '../../components/alerts';
import { PasswordPair } from '../../components/form-field';
import { useCaptcha } from '../../lib/captcha';
import { AuthCard, AuthSuccessCard } from './auth-card';

const empty: ResetPasswordForm = { password: '', confirmPassword: '' };

/** /resetPassword/:token (docs/screens.md#forgot-and-reset-password): a new password; on success Back to Login. */
export function ResetPasswordScreen() {
  const { token = '' } = useParams();
  const captcha = useCaptcha();
  const reset = useResetPassword();
  const [error, setError] = useState('');
  const [done, setDone] = useState(false);
  const {
    register,
    handleSubmit,
    reset: resetForm,
    formState: { errors, isSubmitting },
  } = useForm<ResetPasswordForm>({ resolver: zodResolver(resetPasswordFormSchema), defaultValues: empty });

  const onSubmit = handleSubmit(async (values) => {
    setError('');
    try {
      await reset.mutateAsync({ token, password: values.password, reCaptcha: await captcha() });
      resetForm(empty);
      setDone(true);
    } catch (err) {
      setError(errorMessage(err));
    }
  });

  if (done) return <AuthSuccessCard title="Reset Password" message="Password Reset" />;

  return (
    <AuthCard title="Reset Password">
      <ErrorAlert message={error} />
      <Form noValidate onSubmit={onSubmit} aria-label="Reset Password">
        <PasswordPair
          required
          autoFocus
          password={register('password')}
          confirmPassword={register('confirmPassword')}
          errors={errors}
        />
        <div className="d-grid">
          <Button type="submit" variant="primary" disabled={isSubmitting}>
            Submit
          </Button>
        </div>
      </Form>
      <hr />
      <div className="text-center">
        <Link to="/login">Back to Login</Link>
      </div>
    </AuthCard>
  );
}
