import { useState } from 'react';
import { useForm } from '../../lib/form';
import { forgotPasswordFormSchema, type ForgotPasswordForm } from '@bathylog/shared/rules/auth-forms';
import { useForgotPassword } from '../../api/auth';
import { errorMessage } from '../../api/client';
import { SuccessAlert } from '../../components/alerts';
import { useCaptcha } from '../../lib/captcha';
import { AuthFormCard } from '../../components/auth-card';
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
    schema: forgotPasswordFormSchema,
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
    <AuthFormCard
      title="Forgot Password"
      error={error}
      onSubmit={onSubmit}
      submit={{ label: 'Submit', disabled: isSubmitting || !isValid }}
      done={message ? <SuccessAlert message={message} /> : undefined}
    >
      <TextField
        label="Email"
        required
        type="email"
        registration={register('email')}
        error={errors.email}
        autoComplete="email"
        autoFocus
      />
    </AuthFormCard>
  );
}
